# gensql.awk -v seed=S -v rows=N -v kind=train|run|run2: a SQL workload
# for the sqlite3 shell: tables, inserts in a transaction, indexes, joins,
# aggregates, updates.  Training and measured runs differ in size and in
# the queries; run2 (the second measured workload) is text functions,
# window functions, a view, a trigger and upserts.
BEGIN {
  srand(seed)
  print "CREATE TABLE cust(id INTEGER PRIMARY KEY, name TEXT, city TEXT, score REAL);"
  print "CREATE TABLE ord(id INTEGER PRIMARY KEY, cust INTEGER, item TEXT, qty INTEGER, price REAL);"
  print "BEGIN;"
  for (i = 1; i <= rows; i++)
    printf "INSERT INTO cust VALUES(%d,'name%d','city%d',%.2f);\n", i, i, int(rand() * 50), rand() * 100
  for (i = 1; i <= rows * 4; i++)
    printf "INSERT INTO ord VALUES(%d,%d,'item%d',%d,%.2f);\n", i, 1 + int(rand() * rows), int(rand() * 200), 1 + int(rand() * 9), rand() * 50
  print "COMMIT;"
  print "CREATE INDEX ord_cust ON ord(cust);"
  if (kind == "train") {
    print "SELECT city, count(*), avg(score) FROM cust GROUP BY city ORDER BY 2 DESC LIMIT 5;"
    print "SELECT c.name, sum(o.qty*o.price) AS total FROM cust c JOIN ord o ON o.cust = c.id GROUP BY c.id ORDER BY total DESC LIMIT 5;"
    print "UPDATE ord SET price = price * 1.1 WHERE qty > 5;"
    print "SELECT count(*), sum(price) FROM ord WHERE item LIKE 'item1%';"
  } else if (kind == "run2") {
    print "CREATE TABLE stock(item TEXT PRIMARY KEY, qty INTEGER);"
    print "CREATE TRIGGER ord_stock AFTER INSERT ON ord BEGIN INSERT INTO stock VALUES(new.item, new.qty) ON CONFLICT(item) DO UPDATE SET qty = qty + excluded.qty; END;"
    print "BEGIN;"
    for (i = 1; i <= rows; i++)
      printf "INSERT INTO ord VALUES(%d,%d,'item%d',%d,%.2f);\n", rows * 4 + i, 1 + int(rand() * rows), int(rand() * 300), 1 + int(rand() * 9), rand() * 50
    print "COMMIT;"
    print "CREATE VIEW big AS SELECT cust, item, qty * price AS value FROM ord WHERE qty > 3;"
    print "SELECT count(*), sum(qty) FROM stock;"
    print "SELECT upper(substr(name, 1, 5)), length(group_concat(city, '|')) FROM cust GROUP BY substr(name, 1, 5) ORDER BY 2 DESC LIMIT 5;"
    print "SELECT cust, printf('%.2f', sum(value) OVER (PARTITION BY cust ORDER BY item ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)) FROM big ORDER BY cust, item LIMIT 3;"
    print "SELECT count(*) FROM (SELECT item, rank() OVER (ORDER BY sum(qty) DESC) AS r FROM ord GROUP BY item) WHERE r <= 50;"
    print "SELECT count(*) FROM cust WHERE name LIKE '%7%' AND replace(city, 'city', '') + 0 > 20;"
    print "SELECT printf('%.2f', avg(score)) FROM cust WHERE id IN (SELECT cust FROM ord WHERE price > 45);"
  } else {
    print "CREATE INDEX ord_item ON ord(item);"
    print "SELECT item, count(*), sum(qty) FROM ord GROUP BY item HAVING count(*) > 10 ORDER BY 3 DESC LIMIT 5;"
    print "SELECT c.city, count(DISTINCT o.item), max(o.price) FROM cust c JOIN ord o ON o.cust = c.id WHERE c.score > 50 GROUP BY c.city ORDER BY 1 LIMIT 8;"
    print "DELETE FROM ord WHERE qty = 1;"
    print "SELECT count(*), printf('%.2f', sum(qty*price)) FROM ord;"
    print "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 20000) SELECT sum(x % 7) FROM n;"
  }
}
