# bench_python.sh's workload: what CPython's PGO task (a list of its unit
# tests) never runs as such -- recursion, floating point, dicts and strings,
# json, regular expressions, objects -- about 2.5 s.
import json, re, sys, random

def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def nbody(steps):
    bodies = [[random.random() for _ in range(7)] for _ in range(5)]
    for _ in range(steps):
        for i, a in enumerate(bodies):
            for b in bodies[i + 1:]:
                dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
                d2 = dx * dx + dy * dy + dz * dz + 0.01
                mag = 0.001 / (d2 * d2 ** 0.5)
                a[3] -= dx * b[6] * mag; b[3] += dx * a[6] * mag
                a[4] -= dy * b[6] * mag; b[4] += dy * a[6] * mag
                a[5] -= dz * b[6] * mag; b[5] += dz * a[6] * mag
        for a in bodies:
            a[0] += 0.001 * a[3]; a[1] += 0.001 * a[4]; a[2] += 0.001 * a[5]
    return bodies[0][0]

def words(n):
    rng = random.Random(1)
    vocab = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 8))) for _ in range(2000)]
    text = " ".join(rng.choice(vocab) for _ in range(n))
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]

def jsonwork(n):
    data = [{"id": i, "name": "item%d" % i, "tags": ["a", "b", str(i % 7)], "v": i * 0.5} for i in range(n)]
    s = json.dumps(data)
    return len(json.loads(s))

def regex(n):
    pat = re.compile(r"(\w+)@(\w+)\.(com|org|net)")
    text = " ".join("user%d@host%d.%s" % (i, i % 13, ("com", "org", "net")[i % 3]) for i in range(n))
    return len(pat.findall(text))

class Node:
    __slots__ = ("k", "l", "r")
    def __init__(self, k): self.k, self.l, self.r = k, None, None

def tree(n):
    rng = random.Random(2)
    root = None
    for _ in range(n):
        k = rng.random()
        if root is None: root = Node(k); continue
        t = root
        while True:
            if k < t.k:
                if t.l is None: t.l = Node(k); break
                t = t.l
            else:
                if t.r is None: t.r = Node(k); break
                t = t.r
    return root.k

random.seed(3)
print(fib(28), round(nbody(30000), 6), words(1500000), jsonwork(150000), regex(300000), tree(250000) > 0)
