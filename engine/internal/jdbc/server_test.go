package jdbc

import (
	"database/sql"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/engine/internal/jdbc/jdbctest"
	"github.com/gojm/gojm/jmx"
)

// These tests run against a real PostgreSQL and a real MariaDB, started
// once for the package (jdbctest); the comparison with JMeter itself is
// engine's TestJDBCMatchesJMeter213.

func TestMain(m *testing.M) {
	code := m.Run()
	jdbctest.StopAll()
	os.Exit(code)
}

// rig is a plan of JDBC Connection Configurations and JDBC elements under
// one root, built as the engine builds them.
type rig struct {
	b    *elementtest.Builder
	root *jmx.Element
}

func newRig() *rig {
	return &rig{b: elementtest.New(nil, "plan.jmx", ""), root: &jmx.Element{Tag: "hashTree", Class: "TestPlan", Name: "plan"}}
}

func (r *rig) add(e *jmx.Element) *jmx.Element {
	e.Parent = r.root
	r.root.Children = append(r.root.Children, e)
	return e
}

// config adds a JDBC Connection Configuration named pool.
func (r *rig) config(pool, url, user string, kv ...string) {
	r.add(elementtest.El(ConfigClass, append([]string{"dataSource", pool, "dbUrl", url, "username", user}, kv...)...))
}

// sampler builds a JDBC Request; the configurations must all be added.
func (r *rig) sampler(t *testing.T, name string, kv ...string) element.Sampler {
	t.Helper()
	e := r.add(elementtest.El("JDBCSampler", kv...))
	e.Name = name
	s, err := BuildSampler(r.b, e, element.InScope{})
	if err != nil || len(r.b.Errs) > 0 {
		t.Fatal(err, r.b.Errs)
	}
	return s
}

// sample runs s as user vu and returns its result.
func sample(vu *element.VU, s element.Sampler) *element.Result {
	r := &element.Result{}
	s.Sample(vu, r)
	return r
}

func (r *rig) mariadb(t *testing.T) {
	t.Helper()
	my := jdbctest.MariaDB(t)
	db, err := sql.Open("mysql", my.User+"@tcp("+my.Addr()+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"create database if not exists gojm", "drop table if exists gojm.items",
		"create table gojm.items (id int primary key, name varchar(40) not null, price decimal(8,2), weight double, ratio float, " +
			"ok tinyint(1), flag bit(1), born date, seen datetime, at timestamp null, data blob, note text)",
		"insert into gojm.items values (1, 'apple', 1.50, 0.2, 0.5, 1, b'1', '2020-01-02', '2020-01-02 03:04:05', '2020-01-02 03:04:05', 'hi', null)," +
			"(2, 'pear', 2.25, 1e10, 0.25, 0, b'0', '1999-12-31', '1999-12-31 23:59:59', null, '', 'x')",
		"drop procedure if exists gojm.above",
		"create procedure gojm.above(in p decimal(8,2)) select id, name from gojm.items where price > p order by id",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	r.config("my", "jdbc:mysql://"+my.Addr()+"/gojm?useSSL=false", my.User, "poolMax", "2")
	r.config("mymulti", "jdbc:mariadb://"+my.Addr()+"/gojm", my.User, "poolMax", "0", "connectionProperties", "allowMultiQueries=true")
	r.config("mytx", "jdbc:mysql://"+my.Addr()+"/gojm", my.User, "poolMax", "1", "autocommit", "false")
}

func TestMariaDBSamplesAsConnectorJ(t *testing.T) {
	r := newRig()
	r.mariadb(t)
	type step struct {
		name string
		kv   []string
		code string
		data string
	}
	steps := []step{
		{"select", []string{"dataSource", "my", "queryType", qSelect, "variableNames", "id,,,,,ok",
			"query", "select id, name, price, weight, ratio, ok, flag, born, seen, data, note from items order by id"}, "200",
			"id\tname\tprice\tweight\tratio\tok\tflag\tborn\tseen\tdata\tnote\n" +
				"1\tapple\t1.50\t0.2\t0.5\t1\ttrue\t2020-01-02\t2020-01-02 03:04:05.0\thi\tnull\n" +
				"2\tpear\t2.25\t1.0E10\t0.25\t0\tfalse\t1999-12-31\t1999-12-31 23:59:59.0\t\tx\n"},
		{"update", []string{"dataSource", "my", "queryType", qUpdate, "query", "update items set note = 'y'"}, "200", "2 updates"},
		{"prepared", []string{"dataSource", "my", "queryType", qPreparedSelect, "query", "select name from items where id = ? and born < ?",
			"queryArguments", "2,2000-01-01", "queryArgumentsTypes", "INTEGER,DATE"}, "200", "name\npear\n"},
		{"callable", []string{"dataSource", "my", "queryType", qCallable, "query", "{call above(?)}",
			"queryArguments", "2", "queryArgumentsTypes", "DECIMAL"}, "200", "id\tname\n2\tpear\n\nOutput variables by position:\n"},
		{"multi", []string{"dataSource", "mymulti", "queryType", qUpdate, "query", "update items set note = 'z' where id = 1; update items set note = 'z' where id = 2"}, "200", "1 updates"},
		{"no table", []string{"dataSource", "my", "queryType", qSelect, "query", "select * from nope"}, "42S02 1146", "Table 'gojm.nope' doesn't exist"},
		{"duplicate", []string{"dataSource", "my", "queryType", qUpdate, "query", "insert into items (id, name) values (1, 'dup')"}, "23000 1062",
			"Duplicate entry '1' for key 'PRIMARY'"},
		{"commit in autocommit", []string{"dataSource", "my", "queryType", qCommit}, "08003 0", "Can't call commit when autocommit=true"},
		{"tx insert", []string{"dataSource", "mytx", "queryType", qUpdate, "query", "insert into items (id, name) values (3, 'fig')"}, "200", "1 updates"},
		{"tx unseen", []string{"dataSource", "my", "queryType", qSelect, "query", "select count(*) n from items"}, "200", "n\n2\n"},
		{"tx rollback", []string{"dataSource", "mytx", "queryType", qRollback}, "200", "Rollback"},
		{"tx gone", []string{"dataSource", "my", "queryType", qSelect, "query", "select count(*) n from items"}, "200", "n\n2\n"},
		{"tx insert again", []string{"dataSource", "mytx", "queryType", qUpdate, "query", "insert into items (id, name) values (3, 'fig')"}, "200", "1 updates"},
		{"tx commit", []string{"dataSource", "mytx", "queryType", qCommit}, "200", "Commit"},
		{"tx seen", []string{"dataSource", "my", "queryType", qSelect, "query", "select count(*) n from items"}, "200", "n\n3\n"},
		{"timeout", []string{"dataSource", "my", "queryType", qSelect, "query", "select sleep(5)", "queryTimeout", "1"}, "S1T00 0",
			"Statement cancelled due to timeout or client request"},
		{"after timeout", []string{"dataSource", "my", "queryType", qSelect, "query", "select 1 x"}, "200", "x\n1\n"},
	}
	samplers := make([]element.Sampler, len(steps))
	for i, s := range steps {
		samplers[i] = r.sampler(t, s.name, s.kv...)
	}
	vu := r.b.VU(1)
	defer vu.End()
	for i, s := range steps {
		res := sample(vu, samplers[i])
		if res.Code != s.code || string(res.Body) != s.data || res.Success != (s.code == "200") {
			t.Errorf("%s: %s %q %q, want %s %q", s.name, res.Code, res.Message, res.Body, s.code, s.data)
		}
		if res.Latency > res.Elapsed || res.Connect > res.Elapsed || res.Bytes != int64(len(res.Body)) || res.DataType != "text" {
			t.Errorf("%s: connect %v latency %v elapsed %v bytes %d", s.name, res.Connect, res.Latency, res.Elapsed, res.Bytes)
		}
	}
	if got := elementtest.Vars(vu, "id_1", "id_2", "id_#", "ok_1", "ok_#"); got != "id_1=1; id_2=2; id_#=2; ok_1=1; ok_#=2" {
		t.Errorf("variables: %s", got)
	}
}

// pgRig is a rig with a PostgreSQL configuration of a pool of poolMax.
func pgRig(t *testing.T, pool, poolMax, wait string) *rig {
	pg := jdbctest.Postgres(t)
	r := newRig()
	r.config(pool, "jdbc:postgresql://"+pg.Addr()+"/postgres?ApplicationName="+pool, pg.User, "poolMax", poolMax, "timeout", wait)
	return r
}

func TestPoolWaitsNoLongerThanItsTimeout(t *testing.T) {
	r := pgRig(t, "one", "1", "200")
	slow := r.sampler(t, "slow", "dataSource", "one", "query", "select pg_sleep(2)")
	quick := r.sampler(t, "quick", "dataSource", "one", "query", "select 1")
	a, b := r.b.VU(1), r.b.VU(2)
	defer a.End()
	defer b.End()
	if res := sample(a, quick); !res.Success { // opens the pool
		t.Fatalf("%s %s", res.Code, res.Message)
	}
	p := r.src(t, "one").poolOf(a)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); sample(a, slow) }()
	for deadline := time.Now().Add(10 * time.Second); len(p.slots) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the slow sample never took its connection")
		}
		time.Sleep(time.Millisecond)
	}
	res := sample(b, quick)
	wg.Wait()
	want := "java.sql.SQLException: Cannot get a connection, pool error Timeout waiting for idle object, borrowMaxWaitDuration=PT0.2S"
	if res.Success || res.Code != "null 0" || res.Message != want || res.Connect < 200*time.Millisecond {
		t.Errorf("%s %q connect %v, want null 0 %q after the wait", res.Code, res.Message, res.Connect, want)
	}
}

func (r *rig) src(t *testing.T, name string) *source {
	s := sourcesOf(r.b, r.root).lookup(name)
	if s == nil {
		t.Fatalf("no configuration %s", name)
	}
	return s
}

func TestPoolIsBoundedAndClosesWithItsLastUser(t *testing.T) {
	r := pgRig(t, "bounded", "3", "10000")
	count := r.sampler(t, "count", "dataSource", "bounded",
		"query", "select count(*) n from pg_stat_activity where application_name = 'bounded'")
	busy := r.sampler(t, "busy", "dataSource", "bounded", "query", "select pg_sleep(0.2)")
	vus := []*element.VU{r.b.VU(1), r.b.VU(2), r.b.VU(3), r.b.VU(4), r.b.VU(5)}
	// DBCP's initialSize: the first use opens the pool's size at once
	if res := sample(vus[0], count); string(res.Body) != "n\n3\n" {
		t.Errorf("connections open after the first sample: %q, want the pool's 3", res.Body)
	}
	var wg sync.WaitGroup
	for _, vu := range vus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res := sample(vu, busy); !res.Success {
				t.Errorf("%s %s", res.Code, res.Message)
			}
		}()
	}
	wg.Wait()
	if res := sample(vus[0], count); string(res.Body) != "n\n3\n" {
		t.Errorf("connections open after 5 users at once: %q, want the pool's 3", res.Body)
	}
	for _, vu := range vus {
		vu.End()
	}
	// the last user's end closed the pool: the server sees no connection
	pg := jdbctest.Postgres(t)
	db, err := sql.Open("pgx", "postgres://postgres@"+pg.Addr()+"/postgres")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var n int
		if err := db.QueryRow("select count(*) from pg_stat_activity where application_name = 'bounded'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still open after the pool's users ended", n)
		}
	}
}

func TestPoolOfZeroGivesEachThreadItsConnection(t *testing.T) {
	r := pgRig(t, "own", "0", "10000")
	pid := r.sampler(t, "pid", "dataSource", "own", "query", "select pg_backend_pid() p")
	a, b := r.b.VU(1), r.b.VU(2)
	defer a.End()
	defer b.End()
	a1, a2, b1 := string(sample(a, pid).Body), string(sample(a, pid).Body), string(sample(b, pid).Body)
	if a1 != a2 || a1 == b1 || !strings.HasPrefix(a1, "p\n") {
		t.Errorf("thread 1 saw %q then %q, thread 2 %q: want one connection per thread", a1, a2, b1)
	}
}

func TestProcessorsRunStatementsAndOnlyWarn(t *testing.T) {
	r := pgRig(t, "proc", "1", "10000")
	pre := r.add(elementtest.El("JDBCPreProcessor", "dataSource", "proc", "queryType", qUpdate,
		"query", "create temp table if not exists seen (n int); insert into seen values (1)"))
	bad := r.add(elementtest.El("JDBCPostProcessor", "dataSource", "proc", "queryType", qSelect, "query", "selec"))
	pp, err := BuildPre(r.b, pre)
	if err != nil {
		t.Fatal(err)
	}
	bp, err := BuildPost(r.b, bad)
	if err != nil {
		t.Fatal(err)
	}
	count := r.sampler(t, "count", "dataSource", "proc", "query", "select count(*) n from seen")
	vu := r.b.VU(1)
	defer vu.End()
	pp.PreProcess(vu)
	res := sample(vu, count)
	bp.PostProcess(vu, res)
	if string(res.Body) != "n\n1\n" {
		t.Errorf("after the pre-processor: %s %q", res.Code, res.Body)
	}
}

func TestRefusedConfigurationLeavesNoPool(t *testing.T) {
	r := newRig()
	r.config("mem", "jdbc:hsqldb:mem:db", "sa", "driver", "org.hsqldb.jdbc.JDBCDriver")
	r.config("later", "${url}", "sa", "driver", "org.hsqldb.jdbc.JDBCDriver2")
	s := r.sampler(t, "q", "dataSource", "mem", "query", "select 1")
	late := r.sampler(t, "late", "dataSource", "later", "query", "select 1")
	if len(r.b.Refused) != 1 || !strings.Contains(r.b.Refused[0], "HSQLDB (JDBC URL jdbc:hsqldb:mem:db)") {
		t.Fatalf("refusals: %q", r.b.Refused)
	}
	vu := r.b.VU(1)
	vu.Vars.Put("url", "jdbc:h2:mem:x")
	defer vu.End()
	res := sample(vu, s)
	if res.Code != "null 0" || !strings.HasPrefix(string(res.Body), "No pool found named: 'mem'") {
		t.Errorf("refused pool: %s %q", res.Code, res.Body)
	}
	res = sample(vu, late)
	if res.Code != "null 0" || string(res.Body) != "Cannot load JDBC driver class 'org.hsqldb.jdbc.JDBCDriver2'" {
		t.Errorf("a JVM-only URL known only while running: %s %q", res.Code, res.Body)
	}
}

// BenchmarkSample is one JDBC Request's sample on a pooled connection to
// a real PostgreSQL, for its allocations (-benchmem): most of the time is
// the database's.
func BenchmarkSample(b *testing.B) {
	pg := jdbctest.Postgres(b)
	r := newRig()
	r.config("bench", "jdbc:postgresql://"+pg.Addr()+"/postgres", pg.User, "poolMax", "1")
	for _, c := range []struct {
		name string
		kv   []string
	}{
		{"select", []string{"query", "select i id, 'n' || i as name, i * 1.5 as price from generate_series(1, 10) i", "variableNames", "id,name"}},
		{"prepared", []string{"queryType", qPreparedSelect, "query", "select ? + 1 as n, ? as s", "queryArguments", "41,x", "queryArgumentsTypes", "INTEGER,VARCHAR"}},
		{"update", []string{"queryType", qUpdate, "query", "set application_name = 'bench'"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := r.add(elementtest.El("JDBCSampler", append([]string{"dataSource", "bench"}, c.kv...)...))
			s, err := BuildSampler(r.b, e, element.InScope{})
			if err != nil {
				b.Fatal(err)
			}
			vu := r.b.VU(1)
			defer vu.End()
			res := &element.Result{}
			for b.Loop() {
				res.Reset()
				s.Sample(vu, res)
				if !res.Success {
					b.Fatalf("%s %s", res.Code, res.Message)
				}
			}
		})
	}
}

// terminate ends the server side of the connection whose backend pid the
// body of a "select pg_backend_pid() p" sample holds, and waits until it
// is gone.
func terminate(t *testing.T, body string) {
	t.Helper()
	pid := strings.TrimPrefix(strings.TrimSpace(body), "p\n")
	pg := jdbctest.Postgres(t)
	db, err := sql.Open("pgx", "postgres://postgres@"+pg.Addr()+"/postgres")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("select pg_terminate_backend($1::int)", pid); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var n int
		if err := db.QueryRow("select count(*) from pg_stat_activity where pid = $1::int", pid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("backend %s still there", pid)
		}
	}
}

func TestKeepAliveReplacesADeadConnection(t *testing.T) {
	pg := jdbctest.Postgres(t)
	for _, c := range []struct {
		keepAlive string
		codes     []string // of the samples after the server ended the connection
	}{
		{"true", []string{"200", "200"}},
		// without a check the next sample finds the connection dead (as
		// pgjdbc would), and the one after has a new one (DBCP drops a
		// connection that failed with a disconnection SQLState)
		{"false", []string{"57P01 0", "200"}},
	} {
		t.Run("keepAlive="+c.keepAlive, func(t *testing.T) {
			r := newRig()
			r.config("alive", "jdbc:postgresql://"+pg.Addr()+"/postgres", pg.User, "poolMax", "1",
				"keepAlive", c.keepAlive, "connectionAge", "0", "checkQuery", "select 1")
			pid := r.sampler(t, "pid", "dataSource", "alive", "query", "select pg_backend_pid() p")
			vu := r.b.VU(1)
			defer vu.End()
			first := sample(vu, pid)
			if !first.Success {
				t.Fatalf("%s %s", first.Code, first.Message)
			}
			terminate(t, string(first.Body))
			var codes []string
			for range c.codes {
				res := sample(vu, pid)
				codes = append(codes, res.Code)
				if res.Success && string(res.Body) == string(first.Body) {
					t.Errorf("the same backend answered after it was ended: %q", res.Body)
				}
			}
			if strings.Join(codes, "|") != strings.Join(c.codes, "|") {
				t.Errorf("codes %q, want %q", codes, c.codes)
			}
		})
	}
}

// TestMariaDBConnectionKilledIsReplaced: a connection the server killed
// fails its next sample as Connector/J's CommunicationsException, and the
// sample after has a new one.
func TestMariaDBConnectionKilledIsReplaced(t *testing.T) {
	my := jdbctest.MariaDB(t)
	r := newRig()
	r.config("mykill", "jdbc:mysql://"+my.Addr()+"/", my.User, "poolMax", "1", "keepAlive", "false")
	id := r.sampler(t, "id", "dataSource", "mykill", "query", "select connection_id() c")
	vu := r.b.VU(1)
	defer vu.End()
	first := sample(vu, id)
	if !first.Success {
		t.Fatalf("%s %s", first.Code, first.Message)
	}
	db, err := sql.Open("mysql", my.User+"@tcp("+my.Addr()+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("kill connection " + strings.TrimPrefix(strings.TrimSpace(string(first.Body)), "c\n")); err != nil {
		t.Fatal(err)
	}
	dead, next := sample(vu, id), sample(vu, id)
	if dead.Success || dead.Code != "08S01 0" || dead.Message != "com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure" ||
		!next.Success || string(next.Body) == string(first.Body) {
		t.Errorf("after the kill: %s %q, then %s %q", dead.Code, dead.Message, next.Code, next.Body)
	}
}

func TestUnreachableDatabasesFailAsTheJavaDrivers(t *testing.T) {
	port := strconv.Itoa(jdbctest.ClosedPort(t))
	r := newRig()
	r.config("pgdown", "jdbc:postgresql://localhost:"+port+"/db", "u", "poolMax", "1")
	r.config("mydown", "jdbc:mysql://127.0.0.1:"+port+"/db", "u", "poolMax", "1")
	for _, c := range []struct{ pool, message string }{
		// engine's TestJDBCMatchesJMeter213 has pgjdbc's from JMeter itself
		{"pgdown", "Connection to localhost:" + port + " refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections."},
		{"mydown", "Communications link failure\n\nThe last packet sent successfully to the server was 0 milliseconds ago. The driver has not received any packets from the server."},
	} {
		s := r.sampler(t, c.pool, "dataSource", c.pool, "query", "select 1")
		vu := r.b.VU(1)
		res := sample(vu, s)
		vu.End()
		want := "Cannot create PoolableConnectionFactory (" + c.message + ")"
		if res.Success || res.Code != "null 0" || res.Message != "java.sql.SQLException: "+want || string(res.Body) != want {
			t.Errorf("%s: %s %q %q, want null 0 %q", c.pool, res.Code, res.Message, res.Body, want)
		}
	}
}

// TestMaxRowsStopsReading: JMeter 5.6's "Limit ResultSet" (2.13, which
// the goldens come from, has none).
func TestMaxRowsStopsReading(t *testing.T) {
	r := pgRig(t, "rows", "1", "10000")
	vu := r.b.VU(1)
	defer vu.End()
	for _, c := range []struct{ max, body, count string }{
		{"", "i\n1\n2\n3\n", "3"},
		{"-1", "i\n1\n2\n3\n", "3"},
		{"x", "i\n1\n2\n3\n", "3"},
		{"2", "i\n1\n2\n", "2"},
		{"0", "i\n", "0"},
	} {
		s := r.sampler(t, "max "+c.max, "dataSource", "rows", "query", "select generate_series(1, 3) i",
			"resultSetMaxRows", c.max, "variableNames", "i")
		res := sample(vu, s)
		if n, _ := vu.Vars.Get("i_#"); string(res.Body) != c.body || n != c.count {
			t.Errorf("max rows %q: %q, i_#=%s; want %q, %s", c.max, res.Body, n, c.body, c.count)
		}
	}
	// the rows of earlier samples are gone
	if got := elementtest.Vars(vu, "i_1", "i_2", "i_3"); got != "i_1 unset; i_2 unset; i_3 unset" {
		t.Errorf("after a sample of no rows: %s", got)
	}
}
