package jdbc

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/internal/java"
)

// column is how one result column's values are shown: what the Java
// driver's getObject() returns for the column's type, printed with
// toString (JMeter appends the object to the response).
type column struct {
	label string
	kind  valueKind
}

type valueKind uint8

const (
	kText      valueKind = iota // String and anything shown as its text
	kInt                        // Integer, Long
	kFloat                      // Float
	kDouble                     // Double
	kDecimal                    // BigDecimal
	kBool                       // Boolean
	kDate                       // java.sql.Date
	kTime                       // java.sql.Time
	kTimestamp                  // java.sql.Timestamp
	kZoned                      // a time zone's instant, shown as a local Timestamp
	kBytes                      // byte[], shown as UTF-8 text
	kUUIDBytes                  // SQL Server's uniqueidentifier, shown upper case
	kInterval                   // pgjdbc's PGInterval
)

// kindOf is the Java class a dialect's driver returns for a column of the
// database type name (database/sql's DatabaseTypeName).
func kindOf(d dialect, dbType string) valueKind {
	t := strings.ToUpper(dbType)
	switch d {
	case postgres:
		switch t {
		case "INT2", "INT4", "INT8", "OID", "XID", "CID":
			return kInt
		case "FLOAT4":
			return kFloat
		case "FLOAT8":
			return kDouble
		case "NUMERIC":
			return kDecimal
		case "BOOL":
			return kBool
		case "DATE":
			return kDate
		case "TIME", "TIMETZ":
			return kTime
		case "TIMESTAMP":
			return kTimestamp
		case "TIMESTAMPTZ":
			return kZoned
		case "BYTEA":
			return kBytes
		case "INTERVAL":
			return kInterval
		}
	case mysql:
		switch t {
		case "TINYINT", "SMALLINT", "MEDIUMINT", "INT", "INTEGER", "BIGINT", "YEAR",
			"UNSIGNED TINYINT", "UNSIGNED SMALLINT", "UNSIGNED MEDIUMINT", "UNSIGNED INT", "UNSIGNED BIGINT":
			return kInt
		case "FLOAT":
			return kFloat
		case "DOUBLE":
			return kDouble
		case "DECIMAL":
			return kDecimal
		case "BIT":
			return kBool
		case "DATE":
			return kDate
		case "TIME":
			return kTime
		case "DATETIME", "TIMESTAMP":
			return kTimestamp
		case "BINARY", "VARBINARY", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "GEOMETRY":
			return kBytes
		}
	case sqlserver:
		switch t {
		case "TINYINT", "SMALLINT", "INT", "BIGINT":
			return kInt
		case "REAL":
			return kFloat
		case "FLOAT":
			return kDouble
		case "DECIMAL", "NUMERIC", "MONEY", "SMALLMONEY":
			return kDecimal
		case "BIT":
			return kBool
		case "DATE":
			return kDate
		case "TIME":
			return kTime
		case "DATETIME", "DATETIME2", "SMALLDATETIME":
			return kTimestamp
		case "DATETIMEOFFSET":
			return kText
		case "BINARY", "VARBINARY", "IMAGE":
			return kBytes
		case "UNIQUEIDENTIFIER":
			return kUUIDBytes
		}
	case oracle:
		switch t {
		case "NUMBER", "INTEGER", "FLOAT":
			return kDecimal
		case "BINARY_FLOAT", "IBFLOAT":
			return kFloat
		case "BINARY_DOUBLE", "IBDOUBLE":
			return kDouble
		case "DATE", "TIMESTAMP":
			return kTimestamp
		case "TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMPTZ", "TIMESTAMPLTZ":
			return kZoned
		case "RAW", "LONG RAW", "BLOB":
			return kBytes
		}
	}
	return kText
}

// javaText is value v of column c as the response shows it; ok is false
// for SQL NULL (JMeter appends "null" and leaves the variable unset).
func javaText(c column, v any) (string, bool) {
	if v == nil {
		return "null", false
	}
	switch c.kind {
	case kInt:
		switch x := v.(type) {
		case int64:
			return strconv.FormatInt(x, 10), true
		case uint64:
			return strconv.FormatUint(x, 10), true
		}
	case kFloat:
		if f, ok := asFloat(v); ok {
			return java.FloatString(float32(f)), true
		}
	case kDouble:
		if f, ok := asFloat(v); ok {
			return java.DoubleString(f), true
		}
	case kDecimal:
		switch x := v.(type) {
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64), true
		case int64:
			return strconv.FormatInt(x, 10), true
		}
		return bigDecimalText(text(v)), true
	case kBool:
		switch x := v.(type) {
		case bool:
			return strconv.FormatBool(x), true
		case int64:
			return strconv.FormatBool(x != 0), true
		case []byte: // MySQL's BIT(1) as a byte
			for _, b := range x {
				if b != 0 && b != '0' {
					return "true", true
				}
			}
			return "false", true
		}
		s := text(v)
		return strconv.FormatBool(s == "1" || s == "t" || strings.EqualFold(s, "true")), true
	case kDate:
		if t, ok := v.(time.Time); ok {
			return t.Format("2006-01-02"), true
		}
		s := text(v)
		if len(s) >= 10 {
			return s[:10], true
		}
		return s, true
	case kTime:
		if t, ok := v.(time.Time); ok {
			return t.Format("15:04:05"), true
		}
		s := text(v)
		if i := strings.IndexByte(s, '.'); i >= 0 {
			s = s[:i]
		}
		if i := strings.IndexAny(s, "+-"); i > 0 {
			s = s[:i]
		}
		return s, true
	case kTimestamp:
		if t, ok := v.(time.Time); ok {
			return timestampText(t), true
		}
		s := text(v)
		if t, err := time.Parse("2006-01-02 15:04:05.999999999", s); err == nil {
			return timestampText(t), true
		}
		if t, err := time.Parse("2006-01-02", s); err == nil {
			return timestampText(t), true
		}
		return s, true
	case kZoned:
		if t, ok := v.(time.Time); ok {
			return timestampText(t.Local()), true
		}
	case kBytes:
		if b, ok := v.([]byte); ok {
			return strings.ToValidUTF8(string(b), "\uFFFD"), true
		}
	case kInterval:
		if s, ok := v.(string); ok {
			return intervalText(s), true
		}
	case kUUIDBytes:
		if b, ok := v.([]byte); ok && len(b) == 16 {
			// SQL Server keeps the first three groups little-endian.
			u := []byte{b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6]}
			u = append(u, b[8:]...)
			h := strings.ToUpper(hex.EncodeToString(u))
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], true
		}
	}
	return text(v), true
}

// text is a value's plain text.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return java.DoubleString(x)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return timestampText(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	case []byte:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	}
	return 0, false
}

// timestampText is java.sql.Timestamp.toString: yyyy-mm-dd hh:mm:ss.f,
// the nanoseconds without their trailing zeros but at least one digit.
func timestampText(t time.Time) string {
	s := t.Format("2006-01-02 15:04:05")
	ns := strconv.Itoa(t.Nanosecond())
	ns = strings.Repeat("0", 9-len(ns)) + ns
	ns = strings.TrimRight(ns, "0")
	if ns == "" {
		ns = "0"
	}
	return s + "." + ns
}

// intervalText is pgjdbc's PGInterval.getValue for PostgreSQL's text of an
// interval ("1 year 2 mons 3 days 04:05:06.5"): every field, the seconds
// with one to six decimals ("1 years 2 mons 3 days 4 hours 5 mins 6.5 secs").
func intervalText(s string) string {
	var years, mons, days, hours, mins int64
	var secs float64
	f := strings.Fields(s)
	for i := 0; i < len(f); i++ {
		tok := f[i]
		if strings.Contains(tok, ":") {
			neg := strings.HasPrefix(tok, "-")
			parts := strings.Split(strings.TrimLeft(tok, "+-"), ":")
			if len(parts) != 3 {
				return s
			}
			h, _ := strconv.ParseInt(parts[0], 10, 64)
			m, _ := strconv.ParseInt(parts[1], 10, 64)
			sec, _ := strconv.ParseFloat(parts[2], 64)
			if neg {
				h, m, sec = -h, -m, -sec
			}
			hours, mins, secs = h, m, sec
			continue
		}
		if i+1 >= len(f) {
			return s
		}
		n, err := strconv.ParseInt(tok, 10, 64)
		if err != nil {
			return s
		}
		i++
		switch strings.TrimSuffix(f[i], "s") {
		case "year":
			years = n
		case "mon":
			mons = n
		case "day":
			days = n
		default:
			return s
		}
	}
	sec := strconv.FormatFloat(math.Round(secs*1e6)/1e6, 'f', -1, 64)
	if !strings.Contains(sec, ".") {
		sec += ".0"
	}
	return fmt.Sprintf("%d years %d mons %d days %d hours %d mins %s secs", years, mons, days, hours, mins, sec)
}
