package jdbc

import (
	"context"
	"database/sql/driver"
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	mssql "github.com/microsoft/go-mssqldb"
	"github.com/sijms/go-ora/v2/network"
)

// javaError is a failure as the Java JDBC stack would throw it: its class,
// message, and for a java.sql.SQLException its SQLState and vendor code.
// The JDBC Request shows it as JMeter's JDBCSampler does (sample).
type javaError struct {
	class   string
	message string // "" for a Java exception without one (getMessage() null)
	sql     bool   // a java.sql.SQLException: the code is "SQLState errorCode"
	state   string // "" for a null SQLState
	code    int
}

func (e *javaError) Error() string {
	if e.message == "" {
		return e.class
	}
	return e.class + ": " + e.message
}

// sqlException is java.sql.SQLException(message): no SQLState, code 0.
func sqlException(msg string) *javaError {
	return &javaError{class: "java.sql.SQLException", message: msg, sql: true}
}

// javaException is a Java exception that is not an SQLException.
func javaException(class, msg string) *javaError {
	return &javaError{class: class, message: msg}
}

// sample fills a failed sample's code, message and data as JDBCSampler
// does: "SQLState errorCode" for an SQLException, "000" for anything
// else; the exception's toString as the message; its message as the data
// ("NO MESSAGE" when it has none).
func (e *javaError) sample() (code, message, data string) {
	data = e.message
	if data == "" {
		data = "NO MESSAGE"
	}
	if !e.sql {
		return "000", e.Error(), data
	}
	state := e.state
	if state == "" {
		state = "null"
	}
	return state + " " + strconv.Itoa(e.code), e.Error(), data
}

// translate turns a Go driver's error into the exception the dialect's
// Java driver throws for the same failure.
func translate(d dialect, err error) *javaError {
	var je *javaError
	if errors.As(err, &je) {
		return je
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return timeoutError(d)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return &javaError{class: "org.postgresql.util.PSQLException", message: pgMessage(pe), sql: true, state: pe.Code}
	}
	var me *gomysql.MySQLError
	if errors.As(err, &me) {
		state := string(me.SQLState[:])
		if me.SQLState == [5]byte{} {
			state = "HY000"
		}
		return &javaError{class: mysqlClass(state), message: me.Message, sql: true, state: state, code: int(me.Number)}
	}
	var se mssql.Error
	if errors.As(err, &se) {
		return &javaError{class: "com.microsoft.sqlserver.jdbc.SQLServerException", message: se.Message, sql: true,
			state: mssqlState(se), code: int(se.Number)}
	}
	var oe *network.OracleError
	if errors.As(err, &oe) {
		return &javaError{class: oracleClass(oe.ErrCode), message: strings.TrimRight(oe.ErrMsg, "\n") + "\n", sql: true,
			state: oracleState(oe.ErrCode), code: oe.ErrCode}
	}
	if d == mysql && (errors.Is(err, gomysql.ErrInvalidConn) || errors.Is(err, driver.ErrBadConn)) {
		// Connector/J goes on with how long ago it last heard from the
		// server, which gojm does not know
		return &javaError{class: "com.mysql.cj.jdbc.exceptions.CommunicationsException", message: "Communications link failure", sql: true, state: "08S01"}
	}
	return &javaError{class: "java.sql.SQLException", message: err.Error(), sql: true, state: connectionState(d)}
}

// connectFailure is the Java driver's message for a connection it could
// not open: pgjdbc's own words when the server cannot be reached (a Go
// driver's dial error names the addresses it tried instead), the server's
// message when it refused the login.
func connectFailure(t *target, err error) string {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		return translate(t.dialect, err).message
	}
	switch t.dialect {
	case postgres:
		if errors.Is(err, syscall.ECONNREFUSED) {
			return "Connection to " + t.addr + " refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections."
		}
		return "The connection attempt failed."
	case mysql:
		return "Communications link failure\n\nThe last packet sent successfully to the server was 0 milliseconds ago. The driver has not received any packets from the server."
	}
	return translate(t.dialect, err).message
}

// broken reports whether a statement's failure leaves its connection
// unusable: anything but an error the server answered, or one of gojm's
// own before anything was sent. A PostgreSQL error that ends the session
// (FATAL, or one of the SQLStates DBCP's disconnectionSqlCodes and class
// 08 name) breaks it too, as DBCP then drops the connection.
func broken(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Severity == "FATAL" || pe.Severity == "PANIC" || strings.HasPrefix(pe.Code, "08") ||
			pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var je *javaError
	var me *gomysql.MySQLError
	var se mssql.Error
	var oe *network.OracleError
	return !(errors.As(err, &je) || errors.As(err, &me) || errors.As(err, &se) || errors.As(err, &oe))
}

// pgMessage is pgjdbc's ServerErrorMessage.toString: severity and
// message, then the detail, hint, position and context the server sent.
func pgMessage(pe *pgconn.PgError) string {
	var b strings.Builder
	if pe.Severity != "" {
		b.WriteString(pe.Severity + ": ")
	}
	b.WriteString(pe.Message)
	if pe.Detail != "" {
		b.WriteString("\n  Detail: " + pe.Detail)
	}
	if pe.Hint != "" {
		b.WriteString("\n  Hint: " + pe.Hint)
	}
	if pe.Position != 0 {
		b.WriteString("\n  Position: " + strconv.Itoa(int(pe.Position)))
	}
	if pe.Where != "" {
		b.WriteString("\n  Where: " + pe.Where)
	}
	return b.String()
}

// mysqlClass is the SQLException subclass Connector/J 8 throws for a
// SQLState's class.
func mysqlClass(state string) string {
	switch {
	case strings.HasPrefix(state, "08"):
		return "java.sql.SQLNonTransientConnectionException"
	case strings.HasPrefix(state, "22"):
		return "java.sql.SQLDataException"
	case strings.HasPrefix(state, "23"):
		return "java.sql.SQLIntegrityConstraintViolationException"
	case strings.HasPrefix(state, "28"):
		return "java.sql.SQLInvalidAuthorizationSpecException"
	case strings.HasPrefix(state, "42"):
		return "java.sql.SQLSyntaxErrorException"
	case strings.HasPrefix(state, "40"):
		return "java.sql.SQLTransactionRollbackException"
	case strings.HasPrefix(state, "0A"):
		return "java.sql.SQLFeatureNotSupportedException"
	}
	return "java.sql.SQLException"
}

// mssqlState is the SQLState Microsoft's driver gives a server error.
func mssqlState(e mssql.Error) string {
	switch e.Number {
	case 2601, 2627, 547, 515:
		return "23000"
	case 208, 207, 102, 156, 2812:
		return "S0001"
	}
	return "S000" + strconv.Itoa(int(e.State)%10)
}

// oracleClass and oracleState are what the thin driver gives an ORA- error.
func oracleClass(code int) string {
	switch code {
	case 900, 904, 942, 933, 936, 6550:
		return "java.sql.SQLSyntaxErrorException"
	case 1, 1400, 2291, 2292:
		return "java.sql.SQLIntegrityConstraintViolationException"
	}
	return "java.sql.SQLException"
}

func oracleState(code int) string {
	switch oracleClass(code) {
	case "java.sql.SQLSyntaxErrorException":
		return "42000"
	case "java.sql.SQLIntegrityConstraintViolationException":
		return "23000"
	}
	return "99999"
}

// connectionState is the SQLState a Java driver gives a failure to reach
// or talk to the server.
func connectionState(d dialect) string {
	switch d {
	case postgres:
		return "08006"
	case mysql:
		return "08S01"
	case sqlserver:
		return "08S01"
	}
	return "08006"
}

// timeoutError is what a Java driver throws when a query timeout ends a
// statement (pgjdbc's comes from the server, which the cancel request
// makes answer 57014, see postgresTarget).
func timeoutError(d dialect) *javaError {
	switch d {
	case postgres:
		return &javaError{class: "org.postgresql.util.PSQLException", message: "ERROR: canceling statement due to user request", sql: true, state: "57014"}
	case mysql:
		return &javaError{class: "com.mysql.cj.jdbc.exceptions.MySQLTimeoutException", message: "Statement cancelled due to timeout or client request", sql: true, state: "S1T00"}
	case sqlserver:
		return &javaError{class: "com.microsoft.sqlserver.jdbc.SQLServerException", message: "The query has timed out.", sql: true, state: "HY008"}
	}
	return &javaError{class: "java.sql.SQLTimeoutException", message: "ORA-01013: user requested cancel of current operation\n", sql: true, state: "72000", code: 1013}
}

// notAutoCommit is what a Java driver says of Commit or Rollback on a
// connection in auto-commit mode; nil where it does nothing.
func notAutoCommit(d dialect, op string) *javaError {
	switch d {
	case postgres:
		return &javaError{class: "org.postgresql.util.PSQLException", message: "Cannot " + op + " when autoCommit is enabled.", sql: true, state: "25P01"}
	case mysql:
		return &javaError{class: "java.sql.SQLNonTransientConnectionException", message: "Can't call " + op + " when autocommit=true", sql: true, state: "08003"}
	}
	return nil
}

// noResults is what a Java driver says when a Select Statement runs a
// statement that returns no rows.
func noResults(d dialect) *javaError {
	switch d {
	case postgres:
		return &javaError{class: "org.postgresql.util.PSQLException", message: "No results were returned by the query.", sql: true, state: "02000"}
	case mysql:
		return &javaError{class: "java.sql.SQLException", message: "Statement.executeQuery() cannot issue statements that do not produce result sets.", sql: true, state: "S1009"}
	case sqlserver:
		return &javaError{class: "com.microsoft.sqlserver.jdbc.SQLServerException", message: "The statement did not return a result set.", sql: true}
	}
	return &javaError{class: "java.sql.SQLException", message: "ORA-01002: fetch out of sequence\n", sql: true, state: "72000", code: 1002}
}
