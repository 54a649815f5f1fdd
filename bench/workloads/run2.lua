-- Second measured workload for lua, unlike training and run.lua: string
-- scanning and patterns, coroutines, varargs, metamethods, a queue.
local n = tonumber(arg and arg[1]) or 1
local acc = 0
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({a[1] + b[1], a[2] + b[2]}, V) end
V.__eq = function(a, b) return a[1] == b[1] and a[2] == b[2] end
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + select(i, ...) end
  return s
end
for r = 1, n do
  -- a text to scan: words, numbers, punctuation
  local parts = {}
  for i = 1, 6000 do
    parts[#parts + 1] = ("key%d=%d;"):format(i % 97, (i * 7919) % 100003)
    if i % 13 == 0 then parts[#parts + 1] = " -- note " .. ("x"):rep(i % 7) .. "\n" end
  end
  local text = table.concat(parts)
  for k, v in text:gmatch("key(%d+)=(%d+);") do acc = acc + (tonumber(k) * tonumber(v)) % 1009 end
  acc = acc + select(2, text:gsub("%s%-%-%s", "#"))
  local up = text:sub(1, 20000):upper():lower()
  for i = 1, #up, 37 do acc = acc + up:byte(i) end
  -- coroutines: a generator pipeline
  local gen = coroutine.wrap(function()
    for i = 1, 30000 do coroutine.yield(i * i % 1000) end
  end)
  local filt = coroutine.wrap(function()
    while true do
      local x = gen()
      if x % 3 ~= 0 then coroutine.yield(x) end
    end
  end)
  for _ = 1, 15000 do acc = acc + filt() end
  -- varargs and metamethods
  local p = setmetatable({0, 0}, V)
  for i = 1, 20000 do
    p = p + setmetatable({i % 5, -(i % 3)}, V)
    acc = acc + sum(i, i % 7, i % 11, 3)
  end
  if p == setmetatable({p[1], p[2]}, V) then acc = acc + p[1] - p[2] end
  -- a FIFO queue with table.insert and table.remove
  local q = {}
  for i = 1, 3000 do
    table.insert(q, i)
    if i % 4 == 0 then acc = acc + table.remove(q, 1) end
  end
  acc = acc + #q
end
print(acc)
