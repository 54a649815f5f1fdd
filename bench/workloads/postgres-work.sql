-- bench/bench_postgres.sh's measured workload, which training (the
-- regression suite) never runs: a bank's transactions in the manner of
-- pgbench's TPC-B, then reports over them: sorts, hash and merge joins,
-- aggregates, window functions, text and JSON functions, a recursive
-- query.  Run by "postgres --single -j": a statement ends with a
-- semicolon and an empty line, so function bodies have no empty lines.
-- @SCALE@ is replaced by the script (the accounts are 20,000 times it,
-- the transactions 4,000 times it).  Every result is a checksum, so that
-- the builds' outputs can be compared.

SELECT setseed(0.25);

CREATE TABLE branches (bid int PRIMARY KEY, bbalance bigint, filler char(88));

CREATE TABLE tellers (tid int PRIMARY KEY, bid int, tbalance bigint, filler char(84));

CREATE TABLE accounts (aid int PRIMARY KEY, bid int, abalance bigint, filler char(84));

CREATE TABLE history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));

INSERT INTO branches SELECT b, 0, '' FROM generate_series(1, @SCALE@) b;

INSERT INTO tellers SELECT t, (t - 1) / 10 + 1, 0, '' FROM generate_series(1, 10 * @SCALE@) t;

INSERT INTO accounts
  SELECT a, (a - 1) / 20000 + 1, 0, md5(a::text)
  FROM generate_series(1, 20000 * @SCALE@) a;

CREATE INDEX accounts_bid ON accounts (bid, abalance);

ANALYZE;

CREATE FUNCTION transact(n int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  a int; t int; b int; d int; bal bigint; total bigint := 0;
BEGIN
  FOR i IN 1 .. n LOOP
    a := 1 + floor(random() * 20000 * @SCALE@)::int;
    t := 1 + floor(random() * 10 * @SCALE@)::int;
    b := (t - 1) / 10 + 1;
    d := floor(random() * 10001)::int - 5000;
    UPDATE accounts SET abalance = abalance + d WHERE aid = a;
    SELECT abalance INTO bal FROM accounts WHERE aid = a;
    UPDATE tellers SET tbalance = tbalance + d WHERE tid = t;
    UPDATE branches SET bbalance = bbalance + d WHERE bid = b;
    INSERT INTO history VALUES (t, b, a, d, timestamp '2026-01-01' + i * interval '1 second', 'x');
    total := total + bal;
  END LOOP;
  RETURN total;
END
$$;

SELECT transact(4000 * @SCALE@);

SELECT count(*), sum(abalance), sum(abalance * aid % 7) FROM accounts;

SELECT bid, sum(tbalance), max(tbalance) - min(tbalance) FROM tellers GROUP BY bid ORDER BY bid;

SELECT sum(r * h.delta) FROM (
  SELECT aid, delta, rank() OVER (PARTITION BY bid ORDER BY delta DESC, aid) AS r FROM history) h
  JOIN accounts a USING (aid);

SELECT count(*), sum(length(s)) FROM (
  SELECT string_agg(filler, ',' ORDER BY filler) AS s FROM accounts GROUP BY aid % 97) g;

SELECT md5(string_agg(x, '' ORDER BY x)) FROM (
  SELECT DISTINCT upper(substr(filler, 3, 6)) || regexp_replace(filler, '[0-9]+', '#', 'g') AS x
  FROM accounts WHERE aid % 5 = 0) d;

SELECT sum(length(j::text)) FROM (
  SELECT json_build_object('aid', aid, 'bal', abalance, 'f', trim(filler)) AS j
  FROM accounts WHERE aid % 3 = 0) q;

SELECT count(*), sum(x.n) FROM (
  SELECT a.bid, count(*) AS n FROM accounts a
  JOIN history h ON h.aid = a.aid JOIN tellers t ON t.tid = h.tid
  WHERE t.bid <> a.bid GROUP BY a.bid) x;

WITH RECURSIVE walk(n, v) AS (
  SELECT 1, 7::bigint
  UNION ALL
  SELECT n + 1, (v * 48271) % 2147483647 FROM walk WHERE n < 2000 * @SCALE@)
SELECT count(*), sum(v % 1000) FROM walk JOIN accounts ON aid = 1 + v % (20000 * @SCALE@);

SELECT sum(c) FROM (
  SELECT count(*) OVER w AS c FROM history
  WINDOW w AS (ORDER BY mtime RANGE BETWEEN interval '30 seconds' PRECEDING AND CURRENT ROW)) s;

CREATE INDEX history_aid ON history (aid, delta);

SELECT sum(s) FROM (
  SELECT aid, sum(delta) OVER (PARTITION BY aid ORDER BY delta) AS s FROM history ORDER BY aid) q;

DROP TABLE history, accounts, tellers, branches;

DROP FUNCTION transact(int);
