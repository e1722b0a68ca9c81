package jdbc

import (
	"context"
	"database/sql"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
)

// maxPool bounds a pool whose "Max Number of Connections" is negative,
// which DBCP reads as no limit.
const maxPool = 1024

// pool is a configuration's connections for one run (or one thread):
// at most max lent out, the others kept idle, newest first (DBCP's
// default). The connections stay open between samples with what the
// samples left on them (an open transaction), as JMeter's pool returns
// them; each is lent in the configuration's auto-commit mode.
type pool struct {
	src *source
	st  settings
	log *slog.Logger
	// perThread marks the run's value of a configuration whose threads
	// each have a pool of one (src.own).
	perThread bool

	slots chan struct{} // one per connection lent out

	mu     sync.Mutex
	db     *sql.DB
	idle   []*conn
	opened bool // the pool has opened its first connections (DBCP's initialSize)
	users  int  // threads of the run that use the pool
}

// conn is a connection as a JDBC Connection: its auto-commit mode and,
// without auto-commit, the transaction its statements run in.
type conn struct {
	c          *sql.Conn
	autocommit bool
	tx         *sql.Tx
	idleSince  time.Time
}

func newPool(src *source, vu *element.VU, own bool) *pool {
	st := src.settings(vu, own)
	p := &pool{src: src, st: st, log: vu.Log}
	if !own && st.err == nil && st.max == 0 {
		p.perThread = true
		return p
	}
	n := st.max
	if n < 0 || n > maxPool {
		n = maxPool
	}
	p.slots = make(chan struct{}, max(n, 1))
	return p
}

func (p *pool) hold() {
	p.mu.Lock()
	p.users++
	p.mu.Unlock()
}

// release lets go of a thread's use of the pool; the last user closes its
// connections (JMeter closes its pools when the test ends). A later
// thread, in a tearDown group say, opens them again.
func (p *pool) release() {
	p.mu.Lock()
	p.users--
	last := p.users <= 0
	p.mu.Unlock()
	if last {
		p.close()
	}
}

func (p *pool) close() {
	p.mu.Lock()
	idle, db := p.idle, p.db
	p.idle, p.db, p.opened = nil, nil, false
	p.mu.Unlock()
	for _, c := range idle {
		c.close()
	}
	if db != nil {
		db.Close()
	}
}

// get lends a connection, waiting for one to be free no longer than the
// configuration's "Max Wait"; it returns JMeter's exception when it cannot.
func (p *pool) get(vu *element.VU) (*conn, error) {
	if p.st.err != nil {
		return nil, p.st.err
	}
	if err := p.acquire(vu); err != nil {
		return nil, err
	}
	c, err := p.take(vu.Hard)
	if err != nil {
		<-p.slots
		return nil, err
	}
	// DBCP's activateObject: a connection is lent in the configuration's
	// auto-commit mode, whatever the last sample set (turning auto-commit
	// back on commits what it left open, as JDBC does).
	if c.autocommit != p.st.autocommit {
		if p.st.autocommit && c.tx != nil {
			tx := c.tx
			c.tx = nil
			if err := tx.Commit(); err != nil {
				c.close()
				<-p.slots
				return nil, err
			}
		}
		c.autocommit = p.st.autocommit
	}
	return c, nil
}

func (p *pool) acquire(vu *element.VU) error {
	select {
	case p.slots <- struct{}{}:
		return nil
	default:
	}
	var timeout <-chan time.Time
	if p.st.wait >= 0 {
		t := time.NewTimer(p.st.wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case p.slots <- struct{}{}:
		return nil
	case <-timeout:
		return sqlException("Cannot get a connection, pool error Timeout waiting for idle object, borrowMaxWaitDuration=" + javaDuration(p.st.wait))
	case <-vu.Hard.Done():
		return sqlException("Cannot get a connection, pool error Interrupted while waiting for an idle object")
	}
}

// take returns an idle connection, checked when the configuration keeps
// connections alive, or a new one. The caller holds a slot, and a
// connection is opened only when none is idle, so that no more than the
// pool's size are ever open.
func (p *pool) take(ctx context.Context) (*conn, error) {
	p.mu.Lock()
	if p.db == nil {
		db, err := p.st.target.open()
		if err != nil {
			p.mu.Unlock()
			return nil, sqlException("Cannot create PoolableConnectionFactory (" + err.Error() + ")")
		}
		db.SetMaxIdleConns(0) // idle connections are this pool's, not database/sql's
		p.db = db
	}
	db := p.db
	if !p.opened {
		// DBCP opens initialSize (= the pool's size) connections the
		// first time one is asked for; the others wait meanwhile. None is
		// lent yet, so the idle ones are all there are: those a failed
		// first attempt opened count.
		for len(p.idle) < cap(p.slots) {
			c, err := p.open(ctx, db)
			if err != nil {
				p.mu.Unlock()
				return nil, err
			}
			c.idleSince = time.Now()
			p.idle = append(p.idle, c)
		}
		p.opened = true
	}
	var c *conn
	if n := len(p.idle); n > 0 {
		c, p.idle = p.idle[n-1], p.idle[:n-1]
	}
	p.mu.Unlock()
	if c != nil && p.st.keepAlive && time.Since(c.idleSince) >= p.st.age && !p.valid(ctx, c) {
		c.close()
		c = nil
	}
	if c != nil {
		return c, nil
	}
	return p.open(ctx, db)
}

// open makes a connection with the configuration's init statements and
// isolation, in the configuration's auto-commit mode.
func (p *pool) open(ctx context.Context, db *sql.DB) (*conn, error) {
	sc, err := db.Conn(ctx)
	if err != nil {
		return nil, p.cannotCreate(err)
	}
	c := &conn{c: sc, autocommit: p.st.autocommit}
	if p.st.isolation != "" {
		if _, err := sc.ExecContext(ctx, p.st.isolation); err != nil {
			// JMeter logs it and goes on with the driver's default
			p.log.Warn("JDBC Connection Configuration "+p.src.name+": could not set the transaction isolation: "+err.Error(), "element", p.src.elem.Path())
		}
	}
	for _, q := range p.st.init {
		if _, err := sc.ExecContext(ctx, q); err != nil {
			sc.Close()
			return nil, p.cannotCreate(err)
		}
	}
	return c, nil
}

// cannotCreate is DBCP's exception for a connection the driver could not
// open, around the driver's own message.
func (p *pool) cannotCreate(err error) error {
	return sqlException("Cannot create PoolableConnectionFactory (" + connectFailure(p.st.target, err) + ")")
}

// valid checks an idle connection with the configuration's validation
// query, or the driver's ping.
func (p *pool) valid(ctx context.Context, c *conn) bool {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if p.st.check == "" {
		return c.c.PingContext(ctx) == nil
	}
	rows, err := c.c.QueryContext(ctx, p.st.check)
	if err != nil {
		return false
	}
	rows.Close()
	return true
}

// put returns a lent connection; one the statement's failure broke is
// closed.
func (p *pool) put(c *conn, err error) {
	defer func() { <-p.slots }()
	if broken(err) {
		c.close()
		return
	}
	p.putIdle(c)
}

func (p *pool) putIdle(c *conn) {
	c.idleSince = time.Now()
	p.mu.Lock()
	if p.db == nil { // closed meanwhile
		p.mu.Unlock()
		c.close()
		return
	}
	p.idle = append(p.idle, c)
	p.mu.Unlock()
}

func (c *conn) close() {
	if c.tx != nil {
		c.tx.Rollback()
	}
	c.c.Close()
}

// javaDuration is java.time.Duration.toString for whole milliseconds.
func javaDuration(d time.Duration) string {
	if d == 0 {
		return "PT0S"
	}
	ms := d.Milliseconds()
	neg := ms < 0
	if neg {
		ms = -ms
	}
	h, m, s, frac := ms/3600000, ms/60000%60, ms/1000%60, ms%1000
	var b strings.Builder
	b.WriteString("PT")
	sign := ""
	if neg {
		sign = "-"
	}
	if h > 0 {
		b.WriteString(sign + strconv.FormatInt(h, 10) + "H")
	}
	if m > 0 {
		b.WriteString(sign + strconv.FormatInt(m, 10) + "M")
	}
	if s > 0 || frac > 0 {
		b.WriteString(sign + strconv.FormatInt(s, 10))
		if frac > 0 {
			b.WriteString("." + strings.TrimRight(strconv.FormatInt(1000+frac, 10)[1:], "0"))
		}
		b.WriteString("S")
	}
	return b.String()
}
