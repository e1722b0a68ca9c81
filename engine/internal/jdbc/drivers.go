package jdbc

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
	mssql "github.com/microsoft/go-mssqldb"
	goora "github.com/sijms/go-ora/v2"
)

// dialect is the database a JDBC URL names, which decides the Go driver,
// the placeholders, the statements that set a session's isolation and
// how the Java driver would show values and failures.
type dialect uint8

const (
	postgres dialect = iota + 1
	mysql
	sqlserver
	oracle
)

func (d dialect) String() string {
	switch d {
	case postgres:
		return "PostgreSQL"
	case mysql:
		return "MySQL"
	case sqlserver:
		return "SQL Server"
	case oracle:
		return "Oracle"
	}
	return "?"
}

// target is a database a configuration connects to: its dialect and how
// to open it with the Go driver.
type target struct {
	dialect dialect
	open    func() (*sql.DB, error)
	// dsn is what the Go driver is given, for the tests to read.
	dsn string
	// addr is the first host and port as the URL names them, which the
	// Java driver's message for a server it cannot reach shows.
	addr string
	// warnings are the parts of the URL gojm does not use.
	warnings []string
}

// jvmOnly are the databases whose only JDBC drivers run inside the JVM,
// by the subprotocol of their URLs (jdbc:SUB:…) and by the start of their
// driver classes.
var jvmOnly = []struct{ sub, class, name string }{
	{"hsqldb", "org.hsqldb.", "HSQLDB"},
	{"h2", "org.h2.", "H2"},
	{"derby", "org.apache.derby.", "Apache Derby"},
	{"sqlite", "org.sqlite.", "SQLite (through the Xerial JDBC driver)"},
	{"db2", "com.ibm.db2.", "IBM Db2"},
	{"as400", "com.ibm.as400.", "IBM i (AS/400)"},
	{"informix-sqli", "com.informix.", "Informix"},
	{"sybase", "com.sybase.", "Sybase"},
	{"firebirdsql", "org.firebirdsql.", "Firebird"},
	{"odbc", "sun.jdbc.odbc.", "the JDBC-ODBC bridge"},
	{"hive2", "org.apache.hive.", "Apache Hive"},
	{"phoenix", "org.apache.phoenix.", "Apache Phoenix"},
	{"snowflake", "net.snowflake.", "Snowflake"},
	{"clickhouse", "com.clickhouse.", "ClickHouse (through its JDBC driver)"},
	{"vertica", "com.vertica.", "Vertica"},
	{"teradata", "com.teradata.", "Teradata"},
	{"cassandra", "com.github.adejanovski.", "Cassandra (through a JDBC wrapper)"},
	{"ucanaccess", "net.ucanaccess.", "Microsoft Access (UCanAccess)"},
	{"mckoi", "com.mckoi.", "Mckoi"},
	{"jtds:sybase", "", "Sybase (jTDS)"},
	{"oracle:oci", "", "Oracle through OCI (the native client)"},
}

// refusal is why a configuration cannot run: its database needs a JVM.
type refusal struct{ reason string }

func (r *refusal) Error() string { return r.reason }

// jvmRefusal says which database needs a JVM and what to do.
func jvmRefusal(name, what string) *refusal {
	return &refusal{reason: fmt.Sprintf("%s (%s) has only a JDBC driver that runs inside the JVM; gojm connects to PostgreSQL, MySQL, MariaDB, "+
		"SQL Server and Oracle through Go drivers: point the configuration at one of those, or run this plan with JMeter", what, name)}
}

// login is what a configuration gives the driver besides the URL: the
// user, the password and the Connection Properties, which the URL's own
// parameters override as the Java drivers do.
type login struct {
	user, password string
	props          []param
}

// newLogin reads the Connection Properties field as DBCP's
// setConnectionProperties does: name=value pairs separated by semicolons,
// a name without a value standing for an empty one. A user and password
// among them count only when the configuration's Username is empty: DBCP
// puts its own over them.
func newLogin(user, password, props string) login {
	l := login{user: user, password: password}
	for _, kv := range strings.Split(props, ";") {
		k, v, _ := strings.Cut(kv, "=")
		switch k = strings.TrimSpace(k); {
		case k == "":
		case k == "user" || k == "password":
			if user == "" {
				if k == "user" {
					l.user = v
				} else {
					l.password = v
				}
			}
		default:
			l.props = append(l.props, param{k, v})
		}
	}
	return l
}

// resolve finds the database a configuration names. The URL decides; a
// driver class of a JVM-only database is refused even with another URL,
// since JMeter could not load it either.
func resolve(rawURL, class string, l login) (*target, error) {
	class = strings.TrimSpace(class)
	u := strings.TrimSpace(rawURL)
	lower := strings.ToLower(u)
	for _, j := range jvmOnly {
		if strings.HasPrefix(lower, "jdbc:"+j.sub+":") {
			return nil, jvmRefusal("JDBC URL "+u, j.name)
		}
	}
	for _, j := range jvmOnly {
		if j.class != "" && strings.HasPrefix(class, j.class) {
			return nil, jvmRefusal("driver class "+class, j.name)
		}
	}
	if u == "" {
		return nil, sqlException("Cannot create JDBC driver of class '" + class + "' for connect URL ''") // DBCP's
	}
	if !strings.HasPrefix(lower, "jdbc:") {
		return nil, sqlException("Cannot create JDBC driver of class '" + class + "' for connect URL '" + u + "'")
	}
	rest := u[len("jdbc:"):]
	lrest := lower[len("jdbc:"):]
	switch {
	case strings.HasPrefix(lrest, "postgresql:"):
		return postgresTarget(rest[len("postgresql:"):], l)
	case strings.HasPrefix(lrest, "mysql:"), strings.HasPrefix(lrest, "mariadb:"):
		sub := rest[strings.IndexByte(rest, ':')+1:]
		for _, mode := range []string{"loadbalance:", "replication:", "failover:", "sequential:", "aurora:"} {
			if strings.HasPrefix(strings.ToLower(sub), mode) {
				sub = sub[len(mode):]
			}
		}
		return mysqlTarget(sub, l)
	case strings.HasPrefix(lrest, "sqlserver:"):
		return sqlserverTarget(rest[len("sqlserver:"):], l)
	case strings.HasPrefix(lrest, "jtds:sqlserver:"):
		return jtdsTarget(rest[len("jtds:sqlserver:"):], l)
	case strings.HasPrefix(lrest, "oracle:thin:"):
		return oracleTarget(rest[len("oracle:thin:"):], l)
	}
	sub, _, _ := strings.Cut(rest, ":")
	return nil, &refusal{reason: fmt.Sprintf("the JDBC URL %s names a database (%q) gojm has no Go driver for; gojm connects to PostgreSQL, MySQL, "+
		"MariaDB, SQL Server and Oracle: point the configuration at one of those, or run this plan with JMeter", u, sub)}
}

// splitQuery splits "path?k=v&k2=v2" (or with sep between pairs).
func splitQuery(s string, sep byte) (string, []param) {
	head, q, _ := strings.Cut(s, "?")
	var ps []param
	for _, kv := range strings.Split(q, string(sep)) {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		ps = append(ps, param{k, v})
	}
	return head, ps
}

type param struct{ key, value string }

// postgresTarget reads pgjdbc's URL: //host[:port][,host2[:port2]…]/[db][?k=v…],
// or database alone (on localhost).
func postgresTarget(s string, l login) (*target, error) {
	head, ps := splitQuery(s, '&')
	ps = append(slices.Clone(l.props), ps...)
	user, password := l.user, l.password
	hosts, db := "localhost:5432", head
	if strings.HasPrefix(head, "//") {
		h, d, _ := strings.Cut(head[2:], "/")
		hosts, db = h, d
		if hosts == "" {
			hosts = "localhost"
		}
	}
	if u, err := url.PathUnescape(db); err == nil {
		db = u
	}
	t := &target{dialect: postgres}
	q := url.Values{}
	timeout := 10 * time.Second // pgjdbc's connectTimeout
	for _, p := range ps {
		switch strings.ToLower(p.key) {
		case "user":
			user = p.value
		case "password":
			password = p.value
		case "sslmode":
			q.Set("sslmode", p.value)
		case "ssl":
			if p.value == "true" && q.Get("sslmode") == "" {
				q.Set("sslmode", "verify-full")
			}
		case "applicationname":
			q.Set("application_name", p.value)
		case "currentschema":
			q.Set("search_path", p.value)
		case "options":
			q.Set("options", p.value)
		case "connecttimeout", "logintimeout":
			if n, err := strconv.Atoi(p.value); err == nil {
				timeout = time.Duration(n) * time.Second
			}
		default:
			t.warnings = append(t.warnings, p.key)
		}
	}
	if timeout > 0 {
		q.Set("connect_timeout", strconv.Itoa(int(timeout/time.Second)))
	}
	if q.Get("sslmode") == "" {
		q.Set("sslmode", "prefer") // pgjdbc's default
	}
	var hs []string
	for _, h := range strings.Split(hosts, ",") {
		if _, _, err := net.SplitHostPort(h); err != nil {
			h = net.JoinHostPort(strings.Trim(h, "[]"), "5432")
		}
		hs = append(hs, h)
	}
	t.addr = hs[0]
	dsn := "postgres://" + url.UserPassword(user, password).String() + "@" + strings.Join(hs, ",") + "/" + url.PathEscape(db) + "?" + q.Encode()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("the JDBC URL: %w", err)
	}
	// A query timeout cancels the statement on the server, as pgjdbc's
	// setQueryTimeout does, and keeps the connection.
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, CancelRequestDelay: 0, DeadlineDelay: 5 * time.Second}
	}
	t.open = func() (*sql.DB, error) { return stdlib.OpenDB(*cfg), nil }
	t.dsn = dsn
	return t, nil
}

// mysqlTarget reads Connector/J's and MariaDB Connector/J's URL:
// //host[:port][,host…]/[db][?k=v&…].
func mysqlTarget(s string, l login) (*target, error) {
	head, ps := splitQuery(s, '&')
	ps = append(slices.Clone(l.props), ps...)
	user, password := l.user, l.password
	if !strings.HasPrefix(head, "//") {
		return nil, fmt.Errorf("the JDBC URL must start jdbc:mysql://host")
	}
	hosts, db, _ := strings.Cut(head[2:], "/")
	host, _, _ := strings.Cut(hosts, ",")
	if host == "" {
		host = "localhost"
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), "3306")
	}
	t := &target{dialect: mysql}
	cfg := gomysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.DBName = "tcp", host, db
	cfg.TLSConfig = "preferred"  // Connector/J's sslMode=PREFERRED
	cfg.InterpolateParams = true // Connector/J prepares statements on the client
	// the driver logs what it also returns, to stderr: the sample says it
	cfg.Logger = gomysql.Logger(log.New(io.Discard, "", 0))
	cfg.Timeout = 0
	for _, p := range ps {
		switch strings.ToLower(p.key) {
		case "user":
			user = p.value
		case "password":
			password = p.value
		case "usessl", "requiressl":
			if p.value == "false" {
				cfg.TLSConfig = "false"
			} else {
				cfg.TLSConfig = "skip-verify"
			}
		case "sslmode":
			switch strings.ToUpper(p.value) {
			case "DISABLED":
				cfg.TLSConfig = "false"
			case "REQUIRED":
				cfg.TLSConfig = "skip-verify"
			case "VERIFY_CA", "VERIFY_IDENTITY":
				cfg.TLSConfig = "true"
			}
		case "allowmultiqueries":
			cfg.MultiStatements = p.value == "true"
		case "connecttimeout":
			if n, err := strconv.Atoi(p.value); err == nil {
				cfg.Timeout = time.Duration(n) * time.Millisecond
			}
		case "sockettimeout":
			if n, err := strconv.Atoi(p.value); err == nil {
				cfg.ReadTimeout = time.Duration(n) * time.Millisecond
			}
		case "useunicode", "characterencoding", "servertimezone", "usejdbccomplianttimezoneshift", "uselegacydatetimecode",
			"zerodatetimebehavior", "autoreconnect", "allowpublickeyretrieval":
			// the Go driver speaks UTF-8 and returns dates as text
		default:
			t.warnings = append(t.warnings, p.key)
		}
	}
	cfg.User, cfg.Passwd = user, password
	t.dsn = cfg.FormatDSN()
	t.open = func() (*sql.DB, error) {
		c, err := gomysql.NewConnector(cfg)
		if err != nil {
			return nil, err
		}
		return sql.OpenDB(c), nil
	}
	return t, nil
}

// sqlserverTarget reads Microsoft's URL:
// //[server[\instance][:port]][;property=value…].
func sqlserverTarget(s string, l login) (*target, error) {
	s = strings.TrimPrefix(s, "//")
	head, rest, _ := strings.Cut(s, ";")
	props := map[string]string{}
	for _, p := range l.props {
		props[strings.ToLower(p.key)] = strings.TrimSpace(p.value)
	}
	for _, kv := range strings.Split(rest, ";") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			props[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	user, password := l.user, l.password
	server, port := head, ""
	if i := strings.LastIndexByte(server, ':'); i >= 0 {
		server, port = server[:i], server[i+1:]
	}
	server, instance, _ := strings.Cut(server, `\`)
	pick := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := props[k]; ok {
				delete(props, k)
				return v
			}
		}
		return ""
	}
	if v := pick("servername"); v != "" {
		server = v
	}
	if v := pick("instancename"); v != "" {
		instance = v
	}
	if v := pick("portnumber", "port"); v != "" {
		port = v
	}
	if v := pick("user", "username"); v != "" {
		user = v
	}
	if v := pick("password"); v != "" {
		password = v
	}
	q := url.Values{}
	if db := pick("databasename", "database"); db != "" {
		q.Set("database", db)
	}
	encrypt := pick("encrypt")
	switch strings.ToLower(encrypt) {
	case "false", "optional", "no":
		q.Set("encrypt", "disable")
	case "strict":
		q.Set("encrypt", "strict")
	default:
		q.Set("encrypt", "true") // the Microsoft driver's default since version 10
	}
	if strings.EqualFold(pick("trustservercertificate"), "true") {
		q.Set("TrustServerCertificate", "true")
	}
	if v := pick("applicationname"); v != "" {
		q.Set("app name", v)
	}
	if v := pick("logintimeout"); v != "" {
		q.Set("connection timeout", v)
	}
	t := &target{dialect: sqlserver}
	t.warnings = slices.Sorted(maps.Keys(props)) // one order for the warning
	return sqlserverOpen(t, server, instance, port, user, password, q)
}

// jtdsTarget reads jTDS's URL: //server[:port][/database][;property=value…].
func jtdsTarget(s string, l login) (*target, error) {
	user, password := l.user, l.password
	s = strings.TrimPrefix(s, "//")
	head, rest, _ := strings.Cut(s, ";")
	hostport, db, _ := strings.Cut(head, "/")
	server, port := hostport, ""
	if i := strings.LastIndexByte(server, ':'); i >= 0 {
		server, port = server[:i], server[i+1:]
	}
	q := url.Values{}
	if db != "" {
		q.Set("database", db)
	}
	q.Set("encrypt", "disable") // jTDS's ssl=off
	instance := ""
	t := &target{dialect: sqlserver}
	kvs := strings.Split(rest, ";")
	for _, p := range slices.Backward(l.props) {
		kvs = slices.Insert(kvs, 0, p.key+"="+p.value)
	}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "user":
			user = v
		case "password":
			password = v
		case "instance":
			instance = v
		case "databasename":
			q.Set("database", v)
		case "appname":
			q.Set("app name", v)
		case "ssl":
			switch strings.ToLower(v) {
			case "request", "require":
				q.Set("encrypt", "true")
				q.Set("TrustServerCertificate", "true")
			case "authenticate":
				q.Set("encrypt", "true")
			}
		case "logintimeout":
			q.Set("connection timeout", v)
		default:
			t.warnings = append(t.warnings, k)
		}
	}
	return sqlserverOpen(t, server, instance, port, user, password, q)
}

func sqlserverOpen(t *target, server, instance, port, user, password string, q url.Values) (*target, error) {
	if server == "" {
		server = "localhost"
	}
	host := server
	if port != "" {
		host = net.JoinHostPort(server, port)
	}
	u := &url.URL{Scheme: "sqlserver", User: url.UserPassword(user, password), Host: host, RawQuery: q.Encode()}
	if instance != "" {
		u.Path = "/" + instance
	}
	dsn := u.String()
	t.dsn = dsn
	t.open = func() (*sql.DB, error) {
		c, err := mssql.NewConnector(dsn)
		if err != nil {
			return nil, err
		}
		return sql.OpenDB(c), nil
	}
	return t, nil
}

// oracleTarget reads the thin driver's URL: [user/password]@host:port:SID,
// @//host:port/service, @host:port/service or @(DESCRIPTION=…).
func oracleTarget(s string, l login) (*target, error) {
	user, password := l.user, l.password
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return nil, errors.New("the JDBC URL must hold @host:port:SID or @//host:port/service")
	}
	if cred := s[:at]; cred != "" {
		u, p, _ := strings.Cut(cred, "/")
		user, password = u, p
	}
	conn := s[at+1:]
	t := &target{dialect: oracle}
	for _, p := range l.props {
		t.warnings = append(t.warnings, p.key)
	}
	var dsn string
	if strings.HasPrefix(conn, "(") {
		dsn = goora.BuildJDBC(user, password, conn, nil)
	} else {
		c := strings.TrimPrefix(conn, "//")
		c, _, _ = strings.Cut(c, "?")
		hostport, service, hasService := strings.Cut(c, "/")
		host, portText, sid := hostport, "1521", ""
		parts := strings.Split(hostport, ":")
		switch {
		case len(parts) >= 3 && !hasService:
			host, portText, sid = parts[0], parts[1], parts[2]
		case len(parts) == 2:
			host, portText = parts[0], parts[1]
		}
		port, err := strconv.Atoi(portText)
		if err != nil {
			return nil, fmt.Errorf("the JDBC URL's port %q is not a number", portText)
		}
		opts := map[string]string{}
		if sid != "" {
			opts["SID"] = sid
		}
		dsn = goora.BuildUrl(host, port, service, user, password, opts)
	}
	t.dsn = dsn
	t.open = func() (*sql.DB, error) { return sql.Open("oracle", dsn) }
	return t, nil
}
