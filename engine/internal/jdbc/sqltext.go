package jdbc

import (
	"strconv"
	"strings"
)

// placeholders rewrites JDBC's ? markers as the dialect's (PostgreSQL's
// $1, SQL Server's @p1, Oracle's :1; MySQL keeps ?), leaving those inside
// string literals, quoted names and comments alone, as a JDBC driver
// does. It returns the statement and the number of markers.
func placeholders(d dialect, q string) (string, int) {
	var b strings.Builder
	n := 0
	walk(d, q, func(c byte) {
		if c != '?' {
			b.WriteByte(c)
			return
		}
		n++
		switch d {
		case postgres:
			b.WriteString("$" + strconv.Itoa(n))
		case sqlserver:
			b.WriteString("@p" + strconv.Itoa(n))
		case oracle:
			b.WriteString(":" + strconv.Itoa(n))
		default:
			b.WriteByte('?')
		}
	}, func(s string) { b.WriteString(s) })
	return b.String(), n
}

// statements counts the statements of q, separated by semicolons outside
// literals and comments; empty ones (a trailing semicolon) do not count.
func statements(d dialect, q string) int {
	n, open := 0, false
	walk(d, q, func(c byte) {
		switch {
		case c == ';':
			open = false
		case !open && c > ' ':
			open = true
			n++
		}
	}, func(s string) {
		if !open && !strings.HasPrefix(s, "--") && !strings.HasPrefix(s, "/*") {
			open = true
			n++
		}
	})
	return n
}

// walk calls code for each byte of q outside string literals, quoted
// names, comments and dollar quotes, and quoted for each of those whole.
func walk(d dialect, q string, code func(c byte), quoted func(s string)) {
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"' || (c == '`' && d == mysql):
			j := skipQuoted(q, i, c, d == mysql)
			quoted(q[i:j])
			i = j - 1
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			quoted(q[i : i+j])
			i += j - 1
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			j := strings.Index(q[i+2:], "*/")
			end := len(q)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			quoted(q[i:end])
			i = end - 1
		case c == '$' && d == postgres:
			if tag, ok := dollarTag(q[i:]); ok {
				end := strings.Index(q[i+len(tag):], tag)
				stop := len(q)
				if end >= 0 {
					stop = i + len(tag) + end + len(tag)
				}
				quoted(q[i:stop])
				i = stop - 1
				continue
			}
			code(c)
		default:
			code(c)
		}
	}
}

// skipQuoted returns the index just past the quoted text starting at i,
// where a doubled quote (or, for MySQL, a backslash) escapes one.
func skipQuoted(q string, i int, quote byte, backslash bool) int {
	for j := i + 1; j < len(q); j++ {
		switch q[j] {
		case '\\':
			if backslash && quote != '`' {
				j++
			}
		case quote:
			if j+1 < len(q) && q[j+1] == quote {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(q)
}

// dollarTag reads a PostgreSQL dollar quote's opening tag ($$ or $tag$).
func dollarTag(s string) (string, bool) {
	for j := 1; j < len(s); j++ {
		c := s[j]
		if c == '$' {
			return s[:j+1], true
		}
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 1 && c >= '0' && c <= '9') {
			return "", false
		}
	}
	return "", false
}

// callEscape translates JDBC's call escape, {call proc(args)} or
// {? = call fn(args)}, into the dialect's own statement, as the Java
// drivers do; other statements are returned as they are. ret reports a
// leading "? =": the first marker is the function's result.
func callEscape(d dialect, q string) (stmt string, ret bool) {
	s := strings.TrimSpace(q)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return q, false
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	if strings.HasPrefix(body, "?") {
		rest := strings.TrimSpace(body[1:])
		if !strings.HasPrefix(rest, "=") {
			return q, false
		}
		body, ret = strings.TrimSpace(rest[1:]), true
	}
	if len(body) < 5 || !strings.EqualFold(body[:4], "call") || (body[4] != ' ' && body[4] != '\t' && body[4] != '\n') {
		return q, false
	}
	call := strings.TrimSpace(body[4:])
	switch d {
	case postgres:
		// pgjdbc: select * from fn(args) as result
		if !strings.Contains(call, "(") {
			call += "()"
		}
		return "select * from " + call + " as result", ret
	case mysql:
		if ret {
			return "SELECT " + call, true
		}
		return "CALL " + call, false
	case sqlserver:
		name, args, _ := strings.Cut(call, "(")
		args = strings.TrimSuffix(strings.TrimSpace(args), ")")
		if ret {
			return "EXEC ? = " + strings.TrimSpace(name) + " " + args, true
		}
		return "EXEC " + strings.TrimSpace(name) + " " + args, false
	case oracle:
		if ret {
			return "BEGIN ? := " + call + "; END;", true
		}
		return "BEGIN " + call + "; END;", false
	}
	return q, false
}

// returnsRows reports whether a statement a Callable Statement runs
// yields a result set: the database/sql drivers do not say whether one
// came back without trying to read it, so the first keyword decides.
func returnsRows(d dialect, q string) bool {
	s := strings.TrimLeft(q, " \t\r\n(")
	for strings.HasPrefix(s, "--") || strings.HasPrefix(s, "/*") {
		if strings.HasPrefix(s, "--") {
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = strings.TrimLeft(s[i:], " \t\r\n(")
				continue
			}
			return false
		}
		i := strings.Index(s, "*/")
		if i < 0 {
			return false
		}
		s = strings.TrimLeft(s[i+2:], " \t\r\n(")
	}
	word := s
	if i := strings.IndexAny(s, " \t\r\n(;"); i >= 0 {
		word = s[:i]
	}
	switch strings.ToUpper(word) {
	case "SELECT", "WITH", "VALUES", "SHOW", "TABLE", "EXPLAIN", "DESCRIBE", "DESC", "CALL", "EXEC", "EXECUTE":
		return d != oracle || strings.ToUpper(word) == "SELECT" || strings.ToUpper(word) == "WITH"
	}
	return false
}
