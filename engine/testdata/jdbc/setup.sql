drop table if exists items cascade;
create table items (id int primary key, name varchar(40) not null, price numeric(8,2), weight float8, ratio float4,
  ok boolean, born date, seen timestamp, at timestamptz, data bytea, tags text[], note text);
insert into items values
  (1, 'apple', 1.50, 0.2, 0.5, true, '2020-01-02', '2020-01-02 03:04:05', '2020-01-02 03:04:05+00', '\x6869', '{a,b}', null),
  (2, 'pear', 2.25, 1e10, 0.25, false, '1999-12-31', '1999-12-31 23:59:59.123', '1999-12-31 23:59:59.5+02', '\x', '{}', 'tab	in it');
create function items_above(p numeric) returns setof items language sql as 'select * from items where price > p order by id';
