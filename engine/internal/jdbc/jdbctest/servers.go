// Package jdbctest starts the real database servers the JDBC tests run
// against: a PostgreSQL and a MariaDB from Debian's packages (installed by
// scripts/test-deps.sh), each in a temporary folder, listening on the
// loopback only, as an unprivileged user when the tests run as root
// (neither server runs as root). A test whose server is not installed
// skips, saying so. It is imported by tests only.
//
// It imports the standard library.
package jdbctest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Server is a database server a test started.
type Server struct {
	Host string
	Port int
	User string
	dir  string
	cmd  *exec.Cmd
	done chan struct{}
}

var (
	mu      sync.Mutex
	started = map[string]*Server{}
	failed  = map[string]string{}
)

// Postgres returns the package's PostgreSQL server, started on first use;
// the test skips when PostgreSQL is not installed. Its superuser is
// "postgres", trusted without a password.
func Postgres(t testing.TB) *Server {
	return get(t, "postgres", startPostgres)
}

// MariaDB returns the package's MariaDB server, started on first use; the
// test skips when MariaDB is not installed. Its user "root" has no password.
func MariaDB(t testing.TB) *Server {
	return get(t, "mariadb", startMariaDB)
}

// OwnPostgres starts a PostgreSQL server for t alone, stopped when t
// ends (for a package without a TestMain that calls StopAll).
func OwnPostgres(t testing.TB) *Server {
	t.Helper()
	s, err := startPostgres()
	if err != nil {
		t.Skipf("no postgres server to test against: %v (scripts/test-deps.sh installs it)", err)
	}
	t.Cleanup(s.stop)
	return s
}

// StopAll stops the servers the package's tests started; TestMain calls it.
func StopAll() {
	mu.Lock()
	defer mu.Unlock()
	for k, s := range started {
		s.stop()
		delete(started, k)
	}
}

func get(t testing.TB, name string, start func() (*Server, error)) *Server {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if s, ok := started[name]; ok {
		return s
	}
	if why, ok := failed[name]; ok {
		t.Skip(why)
	}
	s, err := start()
	if err != nil {
		failed[name] = fmt.Sprintf("no %s server to test against: %v (scripts/test-deps.sh installs it)", name, err)
		t.Skip(failed[name])
	}
	started[name] = s
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

func (s *Server) stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(20 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	}
	os.RemoveAll(s.dir)
}

// unprivileged returns the credential to run a server with: nobody's when
// the tests run as root.
func unprivileged() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// workdir makes a folder the server's user owns.
func workdir(cred *syscall.Credential) (string, error) {
	dir, err := os.MkdirTemp("", "gojm-db-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		return "", err
	}
	if cred != nil {
		if err := os.Chown(data, int(cred.Uid), int(cred.Gid)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func command(cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	// Pdeathsig: a test binary that dies (a timeout's panic) takes its
	// servers with it
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true, Pdeathsig: syscall.SIGTERM}
	cmd.Dir = os.TempDir()
	return cmd
}

// freePort asks the kernel for a free loopback port.
// ClosedPort is a loopback port nothing listens on, for a database that
// cannot be reached.
func ClosedPort(t testing.TB) int {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// serve starts a server and waits until ready says it takes connections.
func serve(s *Server, cmd *exec.Cmd, logFile string, ready func() bool) (*Server, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		os.RemoveAll(s.dir)
		return nil, err
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if ready() {
			return s, nil
		}
		select {
		case <-s.done:
			logText, _ := os.ReadFile(logFile)
			os.RemoveAll(s.dir)
			return nil, fmt.Errorf("%s exited: %s%s", cmd.Path, out.String(), logText)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("%s did not listen on %s within a minute", cmd.Path, s.Addr())
		}
	}
}

func startPostgres() (*Server, error) {
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		return nil, fmt.Errorf("initdb not found under /usr/lib/postgresql")
	}
	bin := filepath.Dir(bins[len(bins)-1])
	cred, err := unprivileged()
	if err != nil {
		return nil, err
	}
	dir, err := workdir(cred)
	if err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "data")
	init := command(cred, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := init.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Host: "127.0.0.1", Port: port, User: "postgres", dir: dir}
	cmd := command(cred, filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-k", data,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "TimeZone=UTC",
		"-c", "logging_collector=off", "-c", "max_connections=50")
	// pg_isready asks the server itself: it listens before it takes queries
	isReady := func() bool {
		return exec.Command(filepath.Join(bin, "pg_isready"), "-q", "-h", s.Host, "-p", strconv.Itoa(port)).Run() == nil
	}
	return serve(s, cmd, "", isReady)
}

func startMariaDB() (*Server, error) {
	server, err := exec.LookPath("mariadbd")
	if err != nil {
		if server, err = exec.LookPath("/usr/sbin/mariadbd"); err != nil {
			return nil, fmt.Errorf("mariadbd not found")
		}
	}
	install, err := exec.LookPath("mariadb-install-db")
	if err != nil {
		return nil, fmt.Errorf("mariadb-install-db not found")
	}
	cred, err := unprivileged()
	if err != nil {
		return nil, err
	}
	dir, err := workdir(cred)
	if err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "data")
	init := command(cred, install, "--no-defaults", "--datadir="+data, "--auth-root-authentication-method=normal", "--skip-test-db")
	if out, err := init.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("mariadb-install-db: %v: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Host: "127.0.0.1", Port: port, User: "root", dir: dir}
	logFile := filepath.Join(data, "error.log")
	cmd := command(cred, server, "--no-defaults", "--datadir="+data, "--port="+strconv.Itoa(port), "--bind-address=127.0.0.1",
		"--socket="+filepath.Join(data, "sock"), "--pid-file="+filepath.Join(data, "pid"), "--log-error="+logFile,
		"--skip-log-bin", "--innodb-buffer-pool-size=16M", "--default-time-zone=+00:00", "--character-set-server=utf8mb4")
	// MariaDB opens its port once it takes connections
	listening := func() bool {
		c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}
	return serve(s, cmd, logFile, listening)
}
