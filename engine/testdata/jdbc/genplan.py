#!/usr/bin/env python3
"""Writes postgres.jmx, the JDBC plan whose samples engine/jdbc_oracle_test.go
compares with JMeter 2.13's (jmeter213.xml).

The plan connects to ${__P(pghost)}:${__P(pgport)}, where the test starts a
PostgreSQL and creates the tables of setup.sql, and to ${__P(pgdownport)},
where nothing listens. One thread runs every query
type, parameters of each kind, a transaction rolled back and one committed,
and the failures JMeter names by SQLState, by "000" and by its own messages.
Run it after changing the cases, then the test with -record.
"""
import os
from xml.sax.saxutils import escape, quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))


def sprop(name, value):
    return '<stringProp name=%s>%s</stringProp>' % (quoteattr(name), escape(str(value)))


def bprop(name, value):
    return '<boolProp name=%s>%s</boolProp>' % (quoteattr(name), 'true' if value else 'false')


def element(tag, gui, name, props, kids=''):
    return '<%s guiclass="%s" testclass="%s" testname=%s enabled="true">\n%s\n</%s>\n<hashTree>%s</hashTree>' % (
        tag, gui, tag, quoteattr(name), '\n'.join(props), tag, kids)


def config(name, pool, poolmax, autocommit=True, port='${__P(pgport)}'):
    return element('JDBCDataSource', 'TestBeanGUI', name, [
        bprop('autocommit', autocommit), sprop('checkQuery', 'Select 1'), sprop('connectionAge', '5000'),
        sprop('dataSource', pool), sprop('dbUrl', 'jdbc:postgresql://${__P(pghost)}:%s/postgres' % port),
        sprop('driver', 'org.postgresql.Driver'), bprop('keepAlive', True), sprop('password', ''),
        sprop('poolMax', poolmax), sprop('timeout', '10000'), sprop('transactionIsolation', 'DEFAULT'),
        sprop('trimInterval', '60000'), sprop('username', 'postgres')])


def jdbc(name, kind, query, args='', types='', names='', result='', timeout='', pool='pg'):
    return element('JDBCSampler', 'TestBeanGUI', name, [
        sprop('dataSource', pool), sprop('query', query), sprop('queryArguments', args),
        sprop('queryArgumentsTypes', types), sprop('queryTimeout', timeout), sprop('queryType', kind),
        sprop('resultSetHandler', 'Store as String'), sprop('resultVariable', result), sprop('variableNames', names)])


SEL, UPD, CALL = 'Select Statement', 'Update Statement', 'Callable Statement'
PSEL, PUPD = 'Prepared Select Statement', 'Prepared Update Statement'

CASES = [
    jdbc('select all', SEL, 'select id, name, price, weight, ratio, ok, born, seen, at, data, tags, note from items order by id',
         names='id,name,,w'),
    jdbc('select types', SEL, "select 1::int2 s, 2::int8 b, 0.0000001::numeric tiny, 'NaN'::numeric nan, 1e-5::float8 small, "
         "12345678.5::float4 big, interval '1 year 2 mons 3 days 04:05:06.5' iv, interval '-1 day' neg, '{\"a\": 1}'::jsonb j, "
         "time '10:11:12.5' t, null::text n, 'ab'::char(4) c, '00000000-0000-0000-0000-00000000000a'::uuid u"),
    jdbc('result variable', SEL, 'select id, name, price from items where id <= 2 order by id', result='rows'),
    element('DebugSampler', 'TestBeanGUI', 'variables', [bprop('displayJMeterProperties', False),
            bprop('displayJMeterVariables', True), bprop('displaySystemProperties', False)]),
    jdbc('select none', SEL, 'select id from items where id < 0', names='id'),
    jdbc('insert', UPD, "insert into items (id, name) values (3, 'fig')"),
    jdbc('update many', UPD, "update items set note = 'x' where id > 1"),
    jdbc('prepared select', PSEL, 'select name, price from items where id = ? and name <> ?', '2,apple', 'INTEGER,VARCHAR',
         names='pname'),
    jdbc('prepared update', PUPD, 'update items set born = ?, seen = ?, price = ?, note = ?, ok = ? where id = ?',
         '2021-03-04,2021-03-04 05:06:07.5,9.99,]NULL[,true,3', 'DATE,TIMESTAMP,NUMERIC,VARCHAR,BOOLEAN,INTEGER'),
    jdbc('prepared select after', PSEL, 'select born, seen, price, note, ok from items where id = ?', '3', 'INTEGER'),
    jdbc('quoted argument', PSEL, 'select ? a, ? b', '"x,y",z', 'VARCHAR,VARCHAR'),
    jdbc('callable select', CALL, 'select * from items_above(?)', '2', 'NUMERIC'),
    jdbc('callable escape', CALL, '{call items_above(?)}', '2', 'NUMERIC'),
    jdbc('callable delete', CALL, 'delete from items where id = ?', '3', 'INTEGER'),
    jdbc('callable function', CALL, '{? = call upper(?)}', 'x,abc', 'OUT VARCHAR,VARCHAR', names='up'),
    jdbc('autocommit off', 'AutoCommit(false)', ''),
    jdbc('tx insert', UPD, "insert into items (id, name) values (10, 'ten')"),
    jdbc('rollback', 'Rollback', ''),
    jdbc('count after rollback', SEL, 'select count(*) from items where id >= 10'),
    jdbc('tx insert again', UPD, "insert into items (id, name) values (11, 'eleven')"),
    jdbc('commit', 'Commit', ''),
    jdbc('autocommit on', 'AutoCommit(true)', ''),
    jdbc('count after commit', SEL, 'select count(*) from items where id >= 10'),
    jdbc('commit in autocommit', 'Commit', ''),
    jdbc('no autocommit insert', UPD, "insert into items (id, name) values (20, 'twenty')", pool='pgtx'),
    jdbc('no autocommit rollback', 'Rollback', '', pool='pgtx'),
    jdbc('no autocommit count', SEL, 'select count(*) from items where id >= 20', pool='pgtx'),
    jdbc('no autocommit insert again', UPD, "insert into items (id, name) values (21, 'twenty-one')", pool='pgtx'),
    jdbc('no autocommit commit', 'Commit', '', pool='pgtx'),
    jdbc('count elsewhere', SEL, 'select count(*) from items where id >= 20'),
    jdbc('bad integer', PSEL, 'select ?', 'abc', 'INTEGER'),
    jdbc('syntax error', SEL, 'selec 1'),
    jdbc('no table', SEL, 'select * from nope'),
    jdbc('duplicate key', UPD, "insert into items (id, name) values (1, 'dup')"),
    jdbc('division by zero', SEL, 'select 1/0'),
    jdbc('select of an update', SEL, 'update items set note = note where id = 1'),
    jdbc('update of a select', UPD, 'select id from items'),
    jdbc('two selects', SEL, 'select 1 a; select 2 b'),
    jdbc('two updates', UPD, "update items set note = 'y' where id = 1; update items set note = 'y' where id > 0"),
    jdbc('names with blanks', SEL, 'select id, name from items order by id', names=' id , name '),
    jdbc('arguments and types', PSEL, 'select ?', '1,2', 'INTEGER'),
    jdbc('unknown type', PSEL, 'select ?', '1', 'FOO'),
    jdbc('no pool', SEL, 'select 1', pool='nope'),
    jdbc('no pool name', SEL, 'select 1', pool=''),
    jdbc('query timeout', SEL, 'select pg_sleep(3)', timeout='1'),
    jdbc('unknown query type', 'Merge Statement', 'select 1'),
    jdbc('thread pool', SEL, 'select current_user u', pool='pg0'),
    jdbc('unreachable database', SEL, 'select 1', pool='pgdown'),
]

PLAN = '''<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="2.8" jmeter="2.13">
<hashTree>
<TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="JDBC" enabled="true">
<elementProp name="TestPlan.user_defined_variables" elementType="Arguments"><collectionProp name="Arguments.arguments"/></elementProp>
</TestPlan>
<hashTree>
%s
%s
<ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="TG" enabled="true">
<elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" testname="Loop" enabled="true">
<boolProp name="LoopController.continue_forever">false</boolProp>
<stringProp name="LoopController.loops">1</stringProp>
</elementProp>
<stringProp name="ThreadGroup.num_threads">1</stringProp>
<stringProp name="ThreadGroup.ramp_time">0</stringProp>
<stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
</ThreadGroup>
<hashTree>
%s
</hashTree>
</hashTree>
</hashTree>
</jmeterTestPlan>
'''

with open(os.path.join(HERE, 'postgres.jmx'), 'w') as f:
    f.write(PLAN % (config('PG', 'pg', '1') + config('PG per thread', 'pg0', '0'),
                    config('PG without auto-commit', 'pgtx', '1', autocommit=False) +
                    config('PG unreachable', 'pgdown', '1', port='${__P(pgdownport)}'), '\n'.join(CASES)))
