package jdbc

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// ConfigClass is the JDBC Connection Configuration's test class, as
// JMeter saves DataSourceElement.
const ConfigClass = "JDBCDataSource"

// source is one JDBC Connection Configuration: the pool its samplers name
// by its variable name.
type source struct {
	elem *jmx.Element
	name string
	// The configuration's fields; JMeter evaluates them once, when the
	// test starts, so a pool evaluates them when it opens.
	url, driver, user, password, props, initQuery, checkQuery, poolMax, timeout, age, isolation *element.Template
	autocommit, keepAlive                                                                       bool
	// refused is why gojm cannot run the configuration, known while the
	// plan compiles.
	refused string

	shared *element.Shared[pool] // a pool for the run (poolMax > 0)
	own    *element.Local[pool]  // a pool of one per thread (poolMax 0)
	once   *element.Local[bool]  // the user has said it will let go of the shared pool
}

// sources are a plan's JDBC Connection Configurations by variable name:
// a pool is found by name from anywhere in the plan, since JMeter keeps
// it in the variables every thread starts with.
type sources struct {
	byName map[string]*source
}

var sourcesKey = element.NewKey[*sources]("jdbc sources")

// sourcesOf returns the plan's configurations, read once from the whole
// tree e stands in.
func sourcesOf(c element.Builder, e *jmx.Element) *sources {
	return element.Once(c.Plan(), sourcesKey, func() *sources {
		root := e
		for root.Parent != nil {
			root = root.Parent
		}
		s := &sources{byName: map[string]*source{}}
		root.Walk(func(x *jmx.Element) bool {
			if x.Class == ConfigClass {
				s.add(c, x)
			}
			return true
		})
		return s
	})
}

func (s *sources) add(c element.Builder, e *jmx.Element) {
	name := strings.TrimSpace(e.Str("dataSource"))
	if name == "" {
		c.Plan().Log.Warn("JDBC Connection Configuration has no Variable Name for created pool: no JDBC Request can use it", "element", e.Path())
		return
	}
	if _, dup := s.byName[name]; dup {
		c.Plan().Log.Warn("JDBC data source already defined for "+name+": this configuration is not used (JMeter keeps the first)", "element", e.Path())
		return
	}
	prop := func(name, def string) *element.Template { return element.PropOr(c, e, name, def) }
	src := &source{
		elem: e, name: name,
		url: prop("dbUrl", ""), driver: prop("driver", ""), user: prop("username", ""), password: prop("password", ""),
		props:     prop("connectionProperties", ""),
		initQuery: prop("initQuery", ""), checkQuery: prop("checkQuery", ""),
		poolMax: prop("poolMax", "0"), timeout: prop("timeout", "10000"), age: prop("connectionAge", "5000"),
		isolation:  prop("transactionIsolation", "DEFAULT"),
		autocommit: e.Bool("autocommit", true), keepAlive: e.Bool("keepAlive", true),
	}
	if u, ok := c.Static(src.url); ok {
		d, _ := c.Static(src.driver)
		us, _ := c.Static(src.user)
		props, _ := c.Static(src.props)
		if t, err := resolve(u, d, newLogin(us, "", props)); err != nil {
			if r, ok := err.(*refusal); ok {
				src.refused = r.reason
				c.Refuse(e, r.reason)
			}
		} else if len(t.warnings) > 0 {
			c.Plan().Log.Warn("JDBC URL parameters or connection properties gojm does not use: "+strings.Join(t.warnings, ", "), "element", e.Path())
		}
	}
	src.shared = element.NewShared(c.Plan(), func(vu *element.VU) *pool { return newPool(src, vu, false) })
	src.own = element.NewLocal(c.Plan(), func(vu *element.VU) *pool {
		p := newPool(src, vu, true)
		vu.AtEnd(func(*element.VU) { p.close() })
		return p
	})
	src.once = element.NewLocal(c.Plan(), func(vu *element.VU) *bool { b := false; return &b })
	s.byName[name] = src
}

// poolOf returns the pool vu takes connections from: the run's, or for a
// "Max Number of Connections" of 0 the thread's own. A user of the run's
// pool lets go of it when its thread ends; the last one closes it.
func (s *source) poolOf(vu *element.VU) *pool {
	p := s.shared.Get(vu)
	if p.perThread {
		return s.own.Get(vu)
	}
	if held := s.once.Get(vu); !*held {
		*held = true
		p.hold()
		vu.AtEnd(func(*element.VU) { p.release() })
	}
	return p
}

// settings are a configuration's fields as a pool reads them when it opens.
type settings struct {
	target     *target
	err        error // the configuration cannot open connections
	max        int
	wait       time.Duration // < 0: wait as long as it takes
	autocommit bool
	init       []string
	keepAlive  bool
	check      string
	age        time.Duration
	isolation  string // the session statement that sets it, "" for the driver's default
	info       string // DataSourceElement.getConnectionInfo
	class      string
}

func (s *source) settings(vu *element.VU, perThread bool) settings {
	st := settings{autocommit: s.autocommit, keepAlive: s.keepAlive, class: s.driver.Eval(vu)}
	url, user := s.url.Eval(vu), s.user.Eval(vu)
	max, err := strconv.Atoi(strings.TrimSpace(s.poolMax.Eval(vu)))
	if err != nil {
		st.err = javaException("java.lang.NumberFormatException", `For input string: "`+s.poolMax.Eval(vu)+`"`)
	}
	if perThread {
		max = 1
	}
	st.max = max
	wait, err := strconv.ParseInt(strings.TrimSpace(s.timeout.Eval(vu)), 10, 64)
	if err != nil {
		wait = 10000
	}
	st.wait = time.Duration(wait) * time.Millisecond
	if age, err := strconv.ParseInt(strings.TrimSpace(s.age.Eval(vu)), 10, 64); err == nil {
		st.age = time.Duration(age) * time.Millisecond
	}
	st.check = strings.TrimSpace(s.checkQuery.Eval(vu))
	if q := s.initQuery.Eval(vu); q != "" {
		for _, l := range strings.Split(q, "\n") {
			if strings.TrimSpace(l) != "" {
				st.init = append(st.init, l)
			}
		}
	}
	st.info = "shared:" + strconv.FormatBool(!perThread) + ", driver:" + st.class + ", url:" + url + ", user:" + user
	if st.err != nil {
		return st
	}
	t, err := resolve(url, st.class, newLogin(user, s.password.Eval(vu), s.props.Eval(vu)))
	if err != nil {
		var je *javaError
		switch {
		case errors.As(err, new(*refusal)):
			// known only now (the URL came from a variable): JMeter
			// could not load the driver class either
			st.err = sqlException("Cannot load JDBC driver class '" + st.class + "'")
		case errors.As(err, &je):
			st.err = je
		default:
			st.err = sqlException(err.Error())
		}
		return st
	}
	st.target = t
	iso, ok := isolationStatement(t.dialect, strings.TrimSpace(s.isolation.Eval(vu)))
	if !ok {
		vu.Warnf("JDBC Connection Configuration %s: illegal transaction isolation %q, the driver's default is used", s.name, s.isolation.Eval(vu))
	}
	st.isolation = iso
	return st
}

// isolationStatement is the statement that sets a session's isolation, as
// Connection.setTransactionIsolation does, for DataSourceElement's names
// and java.sql.Connection's numbers; "" for the driver's default.
func isolationStatement(d dialect, level string) (string, bool) {
	names := map[string]string{
		"DEFAULT": "", "TRANSACTION_NONE": "", "0": "",
		"TRANSACTION_READ_UNCOMMITTED": "READ UNCOMMITTED", "1": "READ UNCOMMITTED",
		"TRANSACTION_READ_COMMITTED": "READ COMMITTED", "2": "READ COMMITTED",
		"TRANSACTION_REPEATABLE_READ": "REPEATABLE READ", "4": "REPEATABLE READ",
		"TRANSACTION_SERIALIZABLE": "SERIALIZABLE", "8": "SERIALIZABLE",
		"4096": "SNAPSHOT", // SQL Server's own (jTDS and Microsoft's TRANSACTION_SNAPSHOT)
	}
	if level == "" {
		return "", true
	}
	l, ok := names[level]
	if !ok {
		return "", false
	}
	if l == "" {
		return "", true
	}
	switch d {
	case postgres:
		if l == "SNAPSHOT" {
			return "", false
		}
		return "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL " + l, true
	case mysql:
		if l == "SNAPSHOT" {
			return "", false
		}
		return "SET SESSION TRANSACTION ISOLATION LEVEL " + l, true
	case sqlserver:
		return "SET TRANSACTION ISOLATION LEVEL " + l, true
	case oracle:
		if l != "READ COMMITTED" && l != "SERIALIZABLE" {
			return "", false
		}
		return "ALTER SESSION SET ISOLATION_LEVEL = " + strings.ReplaceAll(l, " ", "_"), true
	}
	return "", true
}

// lookup finds the configuration a JDBC element names.
func (s *sources) lookup(name string) *source { return s.byName[name] }
