package jdbc

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// The query types, as JMeter saves them.
const (
	qSelect          = "Select Statement"
	qUpdate          = "Update Statement"
	qCallable        = "Callable Statement"
	qPreparedSelect  = "Prepared Select Statement"
	qPreparedUpdate  = "Prepared Update Statement"
	qCommit          = "Commit"
	qRollback        = "Rollback"
	qAutocommitFalse = "AutoCommit(false)"
	qAutocommitTrue  = "AutoCommit(true)"
)

// statement is one execution's fields, evaluated for the sample.
type statement struct {
	kind, query, args, types, varNames, resultVar string
	timeout                                       time.Duration // 0: none
	maxRows                                       int           // < 0: all
}

// queryer is a connection or its open transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// run is AbstractJDBCTestElement.execute: it runs st on c and returns
// the response data; latency is called when the database has answered.
func (st *statement) run(vu *element.VU, d dialect, c *conn, latency func()) ([]byte, error) {
	ctx := vu.Hard
	if st.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, st.timeout)
		defer cancel()
	}
	switch st.kind {
	case qSelect, qUpdate:
		q, err := c.queryer()
		if err != nil {
			return nil, err
		}
		var simple []any
		if d == postgres {
			// a plain Statement: the simple protocol, which takes several
			// statements at once as pgjdbc's Statement does
			simple = []any{pgx.QueryExecModeSimpleProtocol}
			if st.kind == qUpdate || statements(d, st.query) > 1 {
				return pgStatements(ctx, c, st, latency)
			}
		}
		if st.kind == qUpdate {
			res, err := q.ExecContext(ctx, st.query, simple...)
			if err != nil {
				return nil, err
			}
			latency()
			n, _ := res.RowsAffected()
			return []byte(strconv.FormatInt(n, 10) + " updates"), nil
		}
		rows, err := q.QueryContext(ctx, st.query, simple...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		latency()
		return st.resultSet(vu, d, rows, true)
	case qPreparedSelect, qPreparedUpdate, qCallable:
		args, err := arguments(st.args, st.types)
		if err != nil {
			return nil, err
		}
		query, ret := st.query, false
		if st.kind == qCallable {
			query, ret = callEscape(d, query)
		}
		query, markers := placeholders(d, query)
		if ret && (d == postgres || d == mysql) {
			markers++ // the "? =" the call became a select of
		}
		if markers < len(args) && len(args) > 0 {
			return nil, sqlException("Could not set argument no: " + strconv.Itoa(markers+1) + " - missing parameter marker?")
		}
		q, err := c.queryer()
		if err != nil {
			return nil, err
		}
		switch st.kind {
		case qPreparedSelect:
			rows, err := q.QueryContext(ctx, query, values(args, d, ret)...)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			latency()
			return st.resultSet(vu, d, rows, true)
		case qPreparedUpdate:
			res, err := q.ExecContext(ctx, query, values(args, d, ret)...)
			if err != nil {
				return nil, err
			}
			latency()
			n, _ := res.RowsAffected()
			return []byte(strconv.FormatInt(n, 10) + " updates.\n"), nil
		}
		return st.callable(ctx, vu, d, q, query, args, ret, latency)
	case qCommit, qRollback:
		if c.autocommit {
			if e := notAutoCommit(d, strings.ToLower(st.kind)); e != nil {
				return nil, e
			}
		} else if c.tx != nil {
			tx := c.tx
			c.tx = nil
			var err error
			if st.kind == qCommit {
				err = tx.Commit()
			} else {
				err = tx.Rollback()
			}
			if err != nil {
				return nil, err
			}
		}
		latency()
		return []byte(st.kind), nil
	case qAutocommitFalse:
		c.autocommit = false
		latency()
		return []byte(st.kind), nil
	case qAutocommitTrue:
		// JDBC: turning auto-commit on commits the open transaction
		if c.tx != nil {
			tx := c.tx
			c.tx = nil
			if err := tx.Commit(); err != nil {
				return nil, err
			}
		}
		c.autocommit = true
		latency()
		return []byte(st.kind), nil
	}
	return nil, javaException("java.lang.UnsupportedOperationException", "Unexpected query type: "+st.kind)
}

// pgStatements runs a plain Update Statement, or a Select Statement of
// several statements, on PostgreSQL as pgjdbc's Statement does: every
// statement runs, then an update whose statements return rows fails, and
// a select of several results fails too (the database/sql driver would
// show the first result and drop the others). An update's count is its
// first statement's, which JMeter reads with getUpdateCount.
func pgStatements(ctx context.Context, c *conn, st *statement, latency func()) ([]byte, error) {
	var results []*pgconn.Result
	err := c.c.Raw(func(dc any) error {
		var err error
		// the connection's own session, inside its open transaction
		results, err = dc.(*stdlib.Conn).Conn().PgConn().Exec(ctx, st.query).ReadAll()
		return err
	})
	if err != nil {
		return nil, err
	}
	latency()
	pgjdbc := func(msg string) error {
		return &javaError{class: "org.postgresql.util.PSQLException", message: msg, sql: true, state: "0100E"}
	}
	if st.kind == qUpdate {
		for _, r := range results {
			if len(r.FieldDescriptions) > 0 {
				return nil, pgjdbc("A result was returned when none was expected.")
			}
		}
		n := int64(0)
		if len(results) > 0 {
			n = results[0].CommandTag.RowsAffected()
		}
		return []byte(strconv.FormatInt(n, 10) + " updates"), nil
	}
	if len(results) == 0 || len(results[0].FieldDescriptions) == 0 {
		return nil, noResults(postgres)
	}
	return nil, pgjdbc("Multiple ResultSets were returned by the query.")
}

// queryer is where the connection's next statement runs: the connection
// in auto-commit mode, else its transaction, begun by the first statement
// after the last commit or rollback as a JDBC connection begins one.
func (c *conn) queryer() (queryer, error) {
	if c.autocommit {
		return c.c, nil
	}
	if c.tx == nil {
		// not the sample's context: database/sql rolls a transaction back
		// when the context it began with ends
		tx, err := c.c.BeginTx(context.Background(), nil)
		if err != nil {
			return nil, err
		}
		c.tx = tx
	}
	return c.tx, nil
}

// values are the arguments the Go driver is given: the input values, and
// for output parameters the driver's out-parameter value.
func values(args []argument, d dialect, ret bool) []any {
	out := make([]any, 0, len(args))
	for i, a := range args {
		if a.out && (d == sqlserver || d == oracle) {
			dest := new(any)
			if a.in {
				*dest = a.value
			}
			out = append(out, sql.Out{Dest: dest, In: a.in})
			continue
		}
		if i == 0 && ret && (d == postgres || d == mysql) {
			continue // the function's result comes back as its row
		}
		out = append(out, a.value)
	}
	return out
}

// callable runs a Callable Statement and shows its results and output
// parameters as resultSetsToString does.
func (st *statement) callable(ctx context.Context, vu *element.VU, d dialect, q queryer, query string, args []argument, ret bool, latency func()) ([]byte, error) {
	vals := values(args, d, ret)
	hasOut := false
	for _, a := range args {
		hasOut = hasOut || a.out
	}
	if hasOut && (d == postgres || d == mysql) && !ret {
		return nil, &javaError{class: "java.sql.SQLFeatureNotSupportedException",
			message: "output parameters of a Callable Statement are not supported by gojm for " + d.String() + ": return them as a result set", sql: true, state: "0A000"}
	}
	var b strings.Builder
	var firstRow []any // PostgreSQL's and MySQL's function result
	if returnsRows(d, query) {
		rows, err := q.QueryContext(ctx, query, vals...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		latency()
		function := ret && d == postgres
		if function {
			// pgjdbc reads a function's row into its output parameters,
			// closes it, and says it returned no result set (hence
			// JMeter's "-1 updates.")
			row, err := functionRow(rows)
			if err != nil {
				return nil, err
			}
			firstRow = row
			b.WriteString("-1 updates.\n")
		}
		for !function {
			cols, err := rows.Columns()
			if err != nil {
				return nil, err
			}
			if len(cols) == 0 {
				b.WriteString("0 updates.\n")
			} else {
				data, row, err := st.resultSetRow(vu, d, rows)
				if err != nil {
					return nil, err
				}
				if firstRow == nil {
					firstRow = row
				}
				b.Write(data)
				b.WriteByte('\n')
			}
			if !rows.NextResultSet() {
				break
			}
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	} else {
		res, err := q.ExecContext(ctx, query, vals...)
		if err != nil {
			return nil, err
		}
		latency()
		n, _ := res.RowsAffected()
		b.WriteString(strconv.FormatInt(n, 10) + " updates.\n")
	}
	b.WriteString("Output variables by position:\n")
	var outs []string
	outSet := []bool{}
	for i, a := range args {
		if !a.out {
			continue
		}
		var v any
		switch {
		case i == 0 && ret && (d == postgres || d == mysql):
			if len(firstRow) > 0 {
				v = firstRow[0]
			}
		default:
			if o, ok := vals[i].(sql.Out); ok {
				v = *(o.Dest.(*any))
			}
		}
		s, ok := javaText(column{kind: kText}, v)
		b.WriteString("[" + strconv.Itoa(i+1) + "] " + s)
		b.WriteByte('\n')
		outs = append(outs, s)
		outSet = append(outSet, ok)
	}
	names := javaSplit(st.varNames, ",")
	for i := 0; i < len(names) && i < len(outs); i++ {
		if n := strings.TrimSpace(names[i]); n != "" {
			if outSet[i] {
				vu.Vars.Put(n, outs[i])
			} else {
				vu.Vars.Remove(n)
			}
		}
	}
	return []byte(b.String()), nil
}

// functionRow is the one row a PostgreSQL function called as {? = call
// f(…)} returns, or pgjdbc's exception when there is none.
func functionRow(rows *sql.Rows) ([]any, error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, &javaError{class: "org.postgresql.util.PSQLException", message: "A CallableStatement was executed with nothing returned.", sql: true, state: "02000"}
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	return vals, nil
}

// resultSet is getStringFromResultSet for the first (only) result.
func (st *statement) resultSet(vu *element.VU, d dialect, rows *sql.Rows, checkColumns bool) ([]byte, error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	if checkColumns && len(cols) == 0 {
		return nil, noResults(d)
	}
	data, _, err := st.resultSetRow(vu, d, rows)
	if err != nil {
		return nil, err
	}
	return data, rows.Err()
}

// resultSetRow writes the current result set as JMeter does: the column
// labels, then each row, tab-separated, each line ending in a newline;
// it sets the variables named for the columns (name_1, name_2… and
// name_#) and the result variable. It returns the first row's values.
func (st *statement) resultSetRow(vu *element.VU, d dialect, rows *sql.Rows) ([]byte, []any, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, err
	}
	cols := make([]column, len(types))
	var b strings.Builder
	for i, t := range types {
		cols[i] = column{label: t.Name(), kind: kindOf(d, t.DatabaseTypeName())}
		b.WriteString(t.Name())
		if i == len(types)-1 {
			b.WriteByte('\n')
		} else {
			b.WriteByte('\t')
		}
	}
	names := javaSplit(st.varNames, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	resultVar := strings.TrimSpace(st.resultVar)
	var result []string // the rows as Java's Map.toString, for the result variable
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var first []any
	n := 0
	for (st.maxRows < 0 || n < st.maxRows) && rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		n++
		if first == nil {
			first = append([]any(nil), vals...)
		}
		var texts []string // only for the result variable
		if resultVar != "" {
			texts = make([]string, len(cols))
		}
		for i, c := range cols {
			s, set := javaText(c, vals[i])
			if texts != nil {
				texts[i] = s
			}
			b.WriteString(s)
			if i == len(cols)-1 {
				b.WriteByte('\n')
			} else {
				b.WriteByte('\t')
			}
			if i < len(names) && names[i] != "" {
				name := names[i] + "_" + strconv.Itoa(n)
				if set {
					vu.Vars.Put(name, s)
				} else {
					vu.Vars.Remove(name)
				}
			}
		}
		if resultVar != "" {
			result = append(result, mapText(cols, texts))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	for _, name := range names {
		if name == "" {
			continue
		}
		count := name + "_#"
		if prev, ok := vu.Vars.Get(count); ok {
			if p, err := strconv.Atoi(prev); err == nil {
				for i := n + 1; i <= p; i++ {
					vu.Vars.Remove(name + "_" + strconv.Itoa(i))
				}
			}
		}
		vu.Vars.Put(count, strconv.Itoa(n))
	}
	if resultVar != "" {
		vu.Vars.Put(resultVar, "["+strings.Join(result, ", ")+"]")
	}
	return []byte(b.String()), first, nil
}

// mapText is a row as JMeter's result variable holds it, a HashMap of
// column label to value, shown with toString.
func mapText(cols []column, texts []string) string {
	labels := make([]string, len(cols))
	for i, c := range cols {
		labels[i] = c.label
	}
	var b strings.Builder
	b.WriteByte('{')
	seen := map[string]bool{}
	for k, i := range java.HashMapOrderSized(labels, len(labels)) {
		if seen[labels[i]] {
			continue
		}
		seen[labels[i]] = true
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(labels[i] + "=" + texts[lastIndex(labels, labels[i])])
	}
	b.WriteByte('}')
	return b.String()
}

func lastIndex(s []string, v string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == v {
			return i
		}
	}
	return -1
}
