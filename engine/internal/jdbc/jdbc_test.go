package jdbc

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestResolveReadsJDBCURLs(t *testing.T) {
	for _, c := range []struct {
		url, class, user string
		dialect          dialect
		dsn              string
	}{
		{"jdbc:postgresql://db:5433/shop?ApplicationName=load&currentSchema=s1", "org.postgresql.Driver", "bob", postgres,
			"postgres://bob:@db:5433/shop?application_name=load&connect_timeout=10&search_path=s1&sslmode=prefer"},
		{"jdbc:postgresql://localhost/", "org.postgresql.Driver", "", postgres,
			"postgres://:@localhost:5432/?connect_timeout=10&sslmode=prefer"},
		{"jdbc:postgresql:shop?user=ann&ssl=true", "", "bob", postgres,
			"postgres://ann:@localhost:5432/shop?connect_timeout=10&sslmode=verify-full"},
		{"jdbc:postgresql://[::1]:5432,h2:5434/x", "", "u", postgres,
			"postgres://u:@[::1]:5432,h2:5434/x?connect_timeout=10&sslmode=prefer"},
		{"jdbc:mysql://localhost:3307/exampledb?useSSL=false", "com.mysql.jdbc.Driver", "root", mysql,
			"root@tcp(localhost:3307)/exampledb?interpolateParams=true&tls=false"},
		{"jdbc:mysql://10.0.0.1/db?allowMultiQueries=true&useUnicode=true&characterEncoding=UTF-8", "com.mysql.cj.jdbc.Driver", "u", mysql,
			"u@tcp(10.0.0.1:3306)/db?interpolateParams=true&multiStatements=true&tls=preferred"},
		{"jdbc:mariadb://localhost:3306/compare-database", "org.mariadb.jdbc.Driver", "u", mysql,
			"u@tcp(localhost:3306)/compare-database?interpolateParams=true&tls=preferred"},
		{"jdbc:mysql:loadbalance://a:1,b:2/db", "", "u", mysql, "u@tcp(a:1)/db?interpolateParams=true&tls=preferred"},
		{"jdbc:sqlserver://localhost:1433;databaseName=TestDB;encrypt=true;trustServerCertificate=true;", "com.microsoft.sqlserver.jdbc.SQLServerDriver", "sa", sqlserver,
			"sqlserver://sa:@localhost:1433?TrustServerCertificate=true&database=TestDB&encrypt=true"},
		{`jdbc:sqlserver://DESKTOP\SQLEXPRESS;DatabaseName=TestDB`, "", "sa", sqlserver,
			"sqlserver://sa:@DESKTOP/SQLEXPRESS?database=TestDB&encrypt=true"},
		{"jdbc:jtds:sqlserver://db:1433/shop;instance=I1;appName=gojm", "net.sourceforge.jtds.jdbc.Driver", "sa", sqlserver,
			"sqlserver://sa:@db:1433/I1?app+name=gojm&database=shop&encrypt=disable"},
		{"jdbc:oracle:thin:@db:1521:ORCL", "oracle.jdbc.OracleDriver", "scott", oracle, "oracle://scott:@db:1521/?SID=ORCL"},
		{"jdbc:oracle:thin:@//db:1522/pdb1", "oracle.jdbc.OracleDriver", "scott", oracle, "oracle://scott:@db:1522/pdb1?"},
	} {
		tg, err := resolve(c.url, c.class, login{user: c.user})
		if err != nil {
			t.Errorf("%s: %v", c.url, err)
			continue
		}
		if tg.dialect != c.dialect || tg.dsn != c.dsn {
			t.Errorf("%s: %v %q, want %v %q", c.url, tg.dialect, tg.dsn, c.dialect, c.dsn)
		}
	}
}

func TestConnectionPropertiesGoUnderTheURLs(t *testing.T) {
	for _, c := range []struct{ url, user, props, dsn, ignored string }{
		{"jdbc:postgresql://h/db?ApplicationName=url", "", "ApplicationName=props; currentSchema=s2;user=pu;password=pw;;loggerLevel",
			"postgres://pu:pw@h:5432/db?application_name=url&connect_timeout=10&search_path=s2&sslmode=prefer", "loggerLevel"},
		{"jdbc:postgresql://h/db", "u", "user=pu;password=pw", "postgres://u:@h:5432/db?connect_timeout=10&sslmode=prefer", ""},
		{"jdbc:mysql://h/db", "u", "allowMultiQueries=true;useSSL=false", "u@tcp(h:3306)/db?interpolateParams=true&multiStatements=true&tls=false", ""},
		{"jdbc:sqlserver://h;databaseName=url", "sa", "databaseName=props;applicationName=load",
			"sqlserver://sa:@h?app+name=load&database=url&encrypt=true", ""},
		{"jdbc:jtds:sqlserver://h/db;appName=url", "sa", "appName=props;tds=8.0", "sqlserver://sa:@h?app+name=url&database=db&encrypt=disable", "tds"},
		{"jdbc:oracle:thin:@h:1521:X", "scott", "oracle.jdbc.timezoneAsRegion=false", "oracle://scott:@h:1521/?SID=X", "oracle.jdbc.timezoneAsRegion"},
	} {
		tg, err := resolve(c.url, "", newLogin(c.user, "", c.props))
		if err != nil {
			t.Errorf("%s: %v", c.url, err)
			continue
		}
		if tg.dsn != c.dsn || strings.Join(tg.warnings, " ") != c.ignored {
			t.Errorf("%s with %s: %q, ignoring %q; want %q, ignoring %q", c.url, c.props, tg.dsn, tg.warnings, c.dsn, c.ignored)
		}
	}
}

func TestResolveNamesTheURLParametersItIgnores(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"jdbc:postgresql://h/db?prepareThreshold=0&ApplicationName=x&tcpKeepAlive=true", "prepareThreshold tcpKeepAlive"},
		{"jdbc:mysql://h/db?useSSL=false&cachePrepStmts=true&rewriteBatchedStatements=true", "cachePrepStmts rewriteBatchedStatements"},
		{"jdbc:sqlserver://h;zeta=1;databaseName=x;alpha=2;sendStringParametersAsUnicode=false", "alpha sendstringparametersasunicode zeta"},
		{"jdbc:jtds:sqlserver://h/db;tds=8.0;appName=x", "tds"},
		{"jdbc:postgresql://h/db", ""},
	} {
		tg, err := resolve(c.url, "", login{user: "u"})
		if err != nil {
			t.Errorf("%s: %v", c.url, err)
			continue
		}
		if got := strings.Join(tg.warnings, " "); got != c.want {
			t.Errorf("%s: ignores %q, want %q", c.url, got, c.want)
		}
	}
}

func TestResolveRefusesJVMOnlyDatabases(t *testing.T) {
	for _, c := range []struct{ url, class, want string }{
		{"jdbc:hsqldb:mem:mymemdb", "org.hsqldb.jdbc.JDBCDriver", "HSQLDB (JDBC URL jdbc:hsqldb:mem:mymemdb) has only a JDBC driver that runs inside the JVM"},
		{"jdbc:h2:~/test", "org.h2.Driver", "H2 (JDBC URL"},
		{"jdbc:derby://localhost:1527/db", "", "Apache Derby (JDBC URL"},
		{"jdbc:hsqldb:hsql://localhost/workdb", "org.hsqldb.util.DatabaseManagerSwing", "HSQLDB (JDBC URL"},
		{"jdbc:postgresql://h/db", "org.h2.Driver", "H2 (driver class org.h2.Driver)"},
		{"jdbc:oracle:oci:@db", "", "Oracle through OCI"},
		{"jdbc:neo4j:bolt://h", "", `names a database ("neo4j") gojm has no Go driver for`},
	} {
		_, err := resolve(c.url, c.class, login{})
		var r *refusal
		if !errors.As(err, &r) || !strings.Contains(r.reason, c.want) || !strings.Contains(r.reason, "run this plan with JMeter") {
			t.Errorf("%s: %v, want a refusal saying %q", c.url, err, c.want)
		}
	}
	// no URL at all runs, and its samples fail as DBCP's do
	if _, err := resolve("", "", login{}); err == nil || err.Error() != "java.sql.SQLException: Cannot create JDBC driver of class '' for connect URL ''" {
		t.Errorf("empty URL: %v", err)
	}
}

func TestPlaceholdersSkipQuotesAndComments(t *testing.T) {
	for _, c := range []struct {
		d       dialect
		in, out string
		n       int
	}{
		{postgres, "select ?, '?', \"a?\", ? -- ?\n, $$ ? $$, $t$?$t$ /* ? */ ?", "select $1, '?', \"a?\", $2 -- ?\n, $$ ? $$, $t$?$t$ /* ? */ $3", 3},
		{postgres, "select 'it''s ?', ?", "select 'it''s ?', $1", 1},
		{mysql, "select ?, 'a\\'?', `c?` from t where x = ?", "select ?, 'a\\'?', `c?` from t where x = ?", 2},
		{sqlserver, "exec p ?, ?", "exec p @p1, @p2", 2},
		{oracle, "select ? from dual where x = '?'", "select :1 from dual where x = '?'", 1},
	} {
		out, n := placeholders(c.d, c.in)
		if out != c.out || n != c.n {
			t.Errorf("%v %q: %q %d, want %q %d", c.d, c.in, out, n, c.out, c.n)
		}
	}
}

func TestStatementsAreCountedOutsideLiterals(t *testing.T) {
	for _, c := range []struct {
		d  dialect
		in string
		n  int
	}{
		{postgres, "select 1", 1},
		{postgres, "select 1;", 1},
		{postgres, " select 1 ; ; ", 1},
		{postgres, "select 1; select 2", 2},
		{postgres, "select ';'; select $$;$$ -- ;\n", 2},
		{postgres, "select 1 /* ; */", 1},
		{postgres, "-- only a comment", 0},
		{postgres, "'a'; 'b'", 2},
		{mysql, "select `a;b`; select 'c\\';d'", 2},
	} {
		if n := statements(c.d, c.in); n != c.n {
			t.Errorf("%v %q: %d statements, want %d", c.d, c.in, n, c.n)
		}
	}
}

func TestCallEscape(t *testing.T) {
	for _, c := range []struct {
		d       dialect
		in, out string
		ret     bool
	}{
		{postgres, "{call items_above(?)}", "select * from items_above(?) as result", false},
		{postgres, " { ? = call upper(?) } ", "select * from upper(?) as result", true},
		{postgres, "{call refresh}", "select * from refresh() as result", false},
		{mysql, "{call p(?, ?)}", "CALL p(?, ?)", false},
		{sqlserver, "{call dbo.p(?, ?)}", "EXEC dbo.p ?, ?", false},
		{oracle, "{call pkg.p(?)}", "BEGIN pkg.p(?); END;", false},
		{postgres, "select 1", "select 1", false},
	} {
		out, ret := callEscape(c.d, c.in)
		if out != c.out || ret != c.ret {
			t.Errorf("%v %q: %q %v, want %q %v", c.d, c.in, out, ret, c.out, c.ret)
		}
	}
}

func TestSplitsAsJMeter(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`1,abc,2020-01-01`, []string{"1", "abc", "2020-01-01"}},
		{`"x,y",z`, []string{"x,y", "z"}},
		{`"say ""hi""", ]NULL[`, []string{`say "hi"`, " ]NULL["}},
		{`a,`, []string{"a", ""}},
	} {
		if got := csvSplit(c.in); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("csvSplit(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"a,b,,", []string{"a", "b"}},
		{"", []string{""}},
		{",", nil},
		{"VARCHAR, DATE", []string{"VARCHAR", " DATE"}},
	} {
		if got := javaSplit(c.in, ","); strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("javaSplit(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestArgumentsConvertAsJMeter(t *testing.T) {
	args, err := arguments("1,x,2.50,1.5,true,2021-3-4,2021-03-04 05:06:07.5,10:11:12,]NULL[,,7",
		"INTEGER,VARCHAR,DECIMAL,REAL, BOOLEAN,DATE,TIMESTAMP,TIME,INTEGER,OUT INTEGER,INOUT 4")
	if err != nil {
		t.Fatal(err)
	}
	want := []any{int64(1), "x", "2.50", 1.5, true, "2021-03-04", "2021-03-04 05:06:07.5", "10:11:12", nil, nil, int64(7)}
	for i, a := range args {
		if a.value != want[i] {
			t.Errorf("argument %d = %#v, want %#v", i+1, a.value, want[i])
		}
	}
	if args[9].in || !args[9].out || !args[10].in || !args[10].out || args[0].out {
		t.Errorf("modes: %+v", args)
	}
	for _, c := range []struct{ values, types, code, message string }{
		{"1,2", "INTEGER", "null 0", "java.sql.SQLException: number of arguments (2) and number of types (1) are not equal"},
		{"1", "FOO", "null 0", "java.sql.SQLException: Invalid data type: FOO"},
		{"abc", "INTEGER", "000", `java.lang.NumberFormatException: For input string: "abc"`},
		{"3000000000", "INTEGER", "000", `java.lang.NumberFormatException: For input string: "3000000000"`},
		{"40000", "SMALLINT", "000", `java.lang.NumberFormatException: Value out of range. Value:"40000" Radix:10`},
		{"1, ", "INTEGER,DOUBLE", "000", "java.lang.NumberFormatException: empty String"},
		{"1.2.3", "NUMERIC", "000", "java.lang.NumberFormatException: Character array is missing \"exponent\" mark 'e' or 'E'."},
		{"2021/01/01", "DATE", "000", "java.lang.IllegalArgumentException"},
		{"2021-01-01", "TIMESTAMP", "000", "java.lang.IllegalArgumentException: Timestamp format must be yyyy-mm-dd hh:mm:ss[.fffffffff]"},
	} {
		_, err := arguments(c.values, c.types)
		var je *javaError
		if !errors.As(err, &je) {
			t.Errorf("%s as %s: %v", c.values, c.types, err)
			continue
		}
		if code, msg, _ := je.sample(); code != c.code || msg != c.message {
			t.Errorf("%s as %s: %s %q, want %s %q", c.values, c.types, code, msg, c.code, c.message)
		}
	}
	if _, _, data := javaException("java.lang.IllegalArgumentException", "").sample(); data != "NO MESSAGE" {
		t.Errorf("data of an exception without a message = %q", data)
	}
}

func TestValuesAsJavaShowsThem(t *testing.T) {
	ts := time.Date(2020, 1, 2, 3, 4, 5, 120000000, time.UTC)
	for _, c := range []struct {
		d      dialect
		dbType string
		v      any
		want   string
	}{
		{postgres, "NUMERIC", "0.0000001", "1E-7"},
		{postgres, "NUMERIC", "-0.00000012", "-1.2E-7"},
		{postgres, "NUMERIC", "12.340", "12.340"},
		{postgres, "NUMERIC", "0.00000000", "0.00000000"},
		{postgres, "NUMERIC", "0.000000100", "1.00E-7"},
		{postgres, "NUMERIC", "NaN", "NaN"},
		{postgres, "NUMERIC", "-100", "-100"},
		{postgres, "FLOAT8", 1e10, "1.0E10"},
		{postgres, "FLOAT4", 12345678.5, "1.2345678E7"},
		{postgres, "TIMESTAMP", ts, "2020-01-02 03:04:05.12"},
		{postgres, "TIMESTAMP", ts.Truncate(time.Second), "2020-01-02 03:04:05.0"},
		{postgres, "TIME", "10:11:12.5", "10:11:12"},
		{postgres, "INTERVAL", "1 year 2 mons 3 days 04:05:06.5", "1 years 2 mons 3 days 4 hours 5 mins 6.5 secs"},
		{postgres, "INTERVAL", "-1 days +02:00:00", "0 years 0 mons -1 days 2 hours 0 mins 0.0 secs"},
		{postgres, "INTERVAL", "-00:00:01.25", "0 years 0 mons 0 days 0 hours 0 mins -1.25 secs"},
		{mysql, "DATETIME", []byte("2020-01-02 03:04:05"), "2020-01-02 03:04:05.0"},
		{mysql, "DATETIME", []byte("2020-01-02 03:04:05.500"), "2020-01-02 03:04:05.5"},
		{mysql, "DECIMAL", []byte("12.340"), "12.340"},
		{mysql, "DOUBLE", 1.5, "1.5"},
		{mysql, "FLOAT", float32(0.1), "0.1"},
		{mysql, "BIT", []byte{1}, "true"},
		{mysql, "BLOB", []byte("hi"), "hi"},
		{sqlserver, "UNIQUEIDENTIFIER", []byte{0x67, 0x45, 0x23, 0x01, 0xab, 0x89, 0xef, 0xcd, 1, 2, 3, 4, 5, 6, 7, 8}, "01234567-89AB-CDEF-0102-030405060708"},
		{sqlserver, "BIT", true, "true"},
		{oracle, "NUMBER", "42", "42"},
		{postgres, "TEXT", nil, "null"},
	} {
		if got, _ := javaText(column{kind: kindOf(c.d, c.dbType)}, c.v); got != c.want {
			t.Errorf("%v %s %#v: %q, want %q", c.d, c.dbType, c.v, got, c.want)
		}
	}
}

func TestResultVariableIsJavasHashMapText(t *testing.T) {
	cols := []column{{label: "id"}, {label: "name"}, {label: "price"}}
	// what JMeter 2.13 showed for this row (engine/testdata/jdbc/jmeter213.xml)
	if got := mapText(cols, []string{"1", "apple", "1.50"}); got != "{name=apple, price=1.50, id=1}" {
		t.Errorf("mapText = %s", got)
	}
}

func TestJavaDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second: "PT10S", 1500 * time.Millisecond: "PT1.5S", time.Minute: "PT1M", 90 * time.Minute: "PT1H30M",
		0: "PT0S", 200 * time.Millisecond: "PT0.2S",
	} {
		if got := javaDuration(d); got != want {
			t.Errorf("%v: %s, want %s", d, got, want)
		}
	}
}

func TestIsolationStatements(t *testing.T) {
	for _, c := range []struct {
		d           dialect
		level, want string
		ok          bool
	}{
		{postgres, "DEFAULT", "", true},
		{postgres, "TRANSACTION_SERIALIZABLE", "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE", true},
		{mysql, "2", "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", true},
		{sqlserver, "4096", "SET TRANSACTION ISOLATION LEVEL SNAPSHOT", true},
		{oracle, "TRANSACTION_READ_COMMITTED", "ALTER SESSION SET ISOLATION_LEVEL = READ_COMMITTED", true},
		{postgres, "sometimes", "", false},
	} {
		got, ok := isolationStatement(c.d, c.level)
		if got != c.want || ok != c.ok {
			t.Errorf("%v %s: %q %v, want %q %v", c.d, c.level, got, ok, c.want, c.ok)
		}
	}
}

func TestTypeCodesDecodeAsInteger(t *testing.T) {
	for in, want := range map[string]int{"varchar": 12, "VarChar": 12, "12": 12, "0x0C": 12, "#c": 12, "014": 12, "-5": -5, "+4": 4} {
		if got, err := jdbcType(in); err != nil || got != want {
			t.Errorf("jdbcType(%q) = %d, %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"2147483648", "0x", "--1", "text", ""} {
		if _, err := jdbcType(in); err == nil || err.Error() != "java.sql.SQLException: Invalid data type: "+in {
			t.Errorf("jdbcType(%q): %v, want Invalid data type", in, err)
		}
	}
}
