-- Measured workload for lua: other algorithms than training (n-body,
-- spectral norm, string building, sieve), same interpreter paths.
local n = tonumber(arg and arg[1]) or 1
local function A(i, j) local ij = i + j - 1; return 1.0 / (ij * (ij - 1) * 0.5 + i) end
local function Av(x, y, N) for i = 1, N do local a = 0 for j = 1, N do a = a + x[j] * A(i, j) end y[i] = a end end
local function Atv(x, y, N) for i = 1, N do local a = 0 for j = 1, N do a = a + x[j] * A(j, i) end y[i] = a end end
local acc = 0
for r = 1, n do
  local N = 120
  local u, v, t = {}, {}, {}
  for i = 1, N do u[i] = 1 end
  for _ = 1, 5 do Av(u, t, N); Atv(t, v, N); Av(v, t, N); Atv(t, u, N) end
  local vBv, vv = 0, 0
  for i = 1, N do vBv = vBv + u[i] * v[i]; vv = vv + v[i] * v[i] end
  acc = acc + math.floor(math.sqrt(vBv / vv) * 1e6)
  local sieve, count = {}, 0
  for i = 2, 60000 do
    if not sieve[i] then count = count + 1; for k = i * i, 60000, i do sieve[k] = true end end
  end
  acc = acc + count
  local words = {}
  for i = 1, 4000 do words[i] = ("w" .. (i * 31 % 977)):rep(1 + i % 3) end
  table.sort(words, function(a, b) return #a < #b or (#a == #b and a < b) end)
  acc = acc + #table.concat(words, " ")
  local bodies = {}
  for i = 1, 5 do bodies[i] = {x = i, y = 2 * i, vx = 0, vy = 0, m = i} end
  for _ = 1, 4000 do
    for i = 1, 5 do
      local bi = bodies[i]
      for j = i + 1, 5 do
        local bj = bodies[j]
        local dx, dy = bi.x - bj.x, bi.y - bj.y
        local d2 = dx * dx + dy * dy + 0.01
        local mag = 0.001 / (d2 * math.sqrt(d2))
        bi.vx = bi.vx - dx * bj.m * mag; bi.vy = bi.vy - dy * bj.m * mag
        bj.vx = bj.vx + dx * bi.m * mag; bj.vy = bj.vy + dy * bi.m * mag
      end
    end
    for i = 1, 5 do local b = bodies[i]; b.x = b.x + 0.01 * b.vx; b.y = b.y + 0.01 * b.vy end
  end
  acc = acc + math.floor(bodies[1].x * 1000)
end
print(acc)
