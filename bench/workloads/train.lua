-- Training workload for lua: recursion, tables, strings, closures, OOP.
local n = tonumber(arg and arg[1]) or 1
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
local acc = 0
for r = 1, n do
  acc = acc + fib(20)
  local t = {}
  for i = 1, 20000 do t[i] = (i * 7919) % 10007 end
  table.sort(t)
  acc = acc + t[1000]
  local parts = {}
  for i = 1, 3000 do parts[#parts + 1] = string.format("%d:%s", i, tostring(i * 3)) end
  local s = table.concat(parts, ",")
  acc = acc + #s + select(2, s:gsub("1", "x"))
  local Point = {}
  Point.__index = Point
  function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
  function Point:len2() return self.x * self.x + self.y * self.y end
  for i = 1, 20000 do acc = acc + Point.new(i, -i):len2() % 7 end
  local counters = {}
  for i = 1, 200 do counters[i] = (function() local c = i; return function() c = c + 1; return c end end)() end
  for i = 1, 200 do for _ = 1, 50 do acc = acc + counters[i]() % 3 end end
end
print(acc)
