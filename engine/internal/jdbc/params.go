package jdbc

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gojm/gojm/internal/java"
)

// The java.sql.Types codes the JDBC Request's parameter types name.
const (
	tBit                   = -7
	tTinyint               = -6
	tSmallint              = 5
	tInteger               = 4
	tBigint                = -5
	tFloat                 = 6
	tReal                  = 7
	tDouble                = 8
	tNumeric               = 2
	tDecimal               = 3
	tChar                  = 1
	tVarchar               = 12
	tLongvarchar           = -1
	tDate                  = 91
	tTime                  = 92
	tTimestamp             = 93
	tBinary                = -2
	tVarbinary             = -3
	tLongvarbinary         = -4
	tNull                  = 0
	tOther                 = 1111
	tJavaObject            = 2000
	tDistinct              = 2001
	tStruct                = 2002
	tArray                 = 2003
	tBlob                  = 2004
	tClob                  = 2005
	tRef                   = 2006
	tDatalink              = 70
	tBoolean               = 16
	tRowid                 = -8
	tNchar                 = -15
	tNvarchar              = -9
	tLongnvarchar          = -16
	tNclob                 = 2011
	tSQLXML                = 2009
	tRefCursor             = 2012
	tTimeWithTimezone      = 2013
	tTimestampWithTimezone = 2014
)

// sqlTypes are java.sql.Types' fields by lower-case name, as JMeter reads
// a parameter's type.
var sqlTypes = map[string]int{
	"bit": tBit, "tinyint": tTinyint, "smallint": tSmallint, "integer": tInteger, "bigint": tBigint,
	"float": tFloat, "real": tReal, "double": tDouble, "numeric": tNumeric, "decimal": tDecimal,
	"char": tChar, "varchar": tVarchar, "longvarchar": tLongvarchar, "date": tDate, "time": tTime,
	"timestamp": tTimestamp, "binary": tBinary, "varbinary": tVarbinary, "longvarbinary": tLongvarbinary,
	"null": tNull, "other": tOther, "java_object": tJavaObject, "distinct": tDistinct, "struct": tStruct,
	"array": tArray, "blob": tBlob, "clob": tClob, "ref": tRef, "datalink": tDatalink, "boolean": tBoolean,
	"rowid": tRowid, "nchar": tNchar, "nvarchar": tNvarchar, "longnvarchar": tLongnvarchar, "nclob": tNclob,
	"sqlxml": tSQLXML, "ref_cursor": tRefCursor, "time_with_timezone": tTimeWithTimezone,
	"timestamp_with_timezone": tTimestampWithTimezone,
}

// nullMarker is the argument value that sends SQL NULL (JMeter's
// jdbcsampler.nullmarker).
const nullMarker = "]NULL["

// argument is one parameter of a prepared or callable statement.
type argument struct {
	value   any // what the Go driver is given; nil for NULL
	sqlType int
	in, out bool
}

// arguments reads a statement's parameter values and types as
// AbstractJDBCTestElement.setArguments does: the values split as a CSV
// line, the types at commas, each type maybe after IN, OUT or INOUT.
func arguments(values, types string) ([]argument, error) {
	if strings.TrimSpace(values) == "" {
		return nil, nil
	}
	vals := csvSplit(values)
	typs := javaSplit(types, ",")
	if len(vals) != len(typs) {
		return nil, sqlException("number of arguments (" + strconv.Itoa(len(vals)) + ") and number of types (" + strconv.Itoa(len(typs)) + ") are not equal")
	}
	out := make([]argument, len(vals))
	for i, v := range vals {
		typ, mode := typs[i], ""
		if parts := javaSplit(typ, " "); len(parts) > 1 {
			typ, mode = parts[1], parts[0]
		}
		code, err := jdbcType(typ)
		if err != nil {
			return nil, err
		}
		a := argument{sqlType: code, in: !strings.EqualFold(mode, "OUT")}
		a.out = strings.EqualFold(mode, "OUT") || strings.EqualFold(mode, "INOUT")
		if a.in && v != nullMarker {
			if a.value, err = javaValue(v, code); err != nil {
				return nil, err
			}
		}
		out[i] = a
	}
	return out, nil
}

// jdbcType is a type name of java.sql.Types, or a code Integer.decode reads.
func jdbcType(s string) (int, error) {
	if c, ok := sqlTypes[strings.ToLower(s)]; ok {
		return c, nil
	}
	n, err := java.DecodeLong(s)
	if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, sqlException("Invalid data type: " + s)
	}
	return int(n), nil
}

// javaValue converts an argument's text as setArgument does (Integer.parseInt
// for INTEGER, Date.valueOf for DATE…): what the Go driver sends, or the Java
// exception a bad value throws.
func javaValue(v string, code int) (any, error) {
	switch code {
	case tInteger:
		return parseJavaInt(v, 32)
	case tBigint:
		return parseJavaInt(v, 64)
	case tSmallint:
		return parseJavaRanged(v, 16)
	case tTinyint:
		return parseJavaRanged(v, 8)
	case tDecimal, tNumeric:
		if !bigDecimal.MatchString(v) {
			return nil, javaException("java.lang.NumberFormatException", bigDecimalMessage(v))
		}
		return v, nil
	case tDouble, tFloat:
		return parseJavaDouble(v, 64)
	case tReal:
		f, err := parseJavaDouble(v, 32)
		if err != nil {
			return nil, err
		}
		return float64(float32(f.(float64))), nil
	case tChar, tLongvarchar, tVarchar:
		return v, nil
	case tBit, tBoolean:
		return strings.EqualFold(v, "true"), nil
	case tDate:
		m := sqlDate.FindStringSubmatch(v)
		if m == nil {
			return nil, javaException("java.lang.IllegalArgumentException", "")
		}
		return pad4(m[1]) + "-" + pad2(m[2]) + "-" + pad2(m[3]), nil
	case tTimestamp:
		m := sqlTimestamp.FindStringSubmatch(v)
		if m == nil {
			return nil, javaException("java.lang.IllegalArgumentException", "Timestamp format must be yyyy-mm-dd hh:mm:ss[.fffffffff]")
		}
		return pad4(m[1]) + "-" + pad2(m[2]) + "-" + pad2(m[3]) + " " + m[4] + m[5], nil
	case tTime:
		if !sqlTime.MatchString(v) {
			return nil, javaException("java.lang.IllegalArgumentException", "")
		}
		return v, nil
	case tBinary, tVarbinary, tLongvarbinary:
		return []byte(v), nil
	case tNull:
		return nil, nil
	}
	return v, nil // setObject(index, text, type): the driver converts the text
}

var (
	bigDecimal   = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)
	sqlDate      = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})$`)
	sqlTimestamp = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}:\d{1,2}:\d{1,2})(\.\d{1,9})?$`)
	sqlTime      = regexp.MustCompile(`^\d{1,2}:\d{1,2}:\d{1,2}$`)
)

func pad2(s string) string {
	if len(s) < 2 {
		return "0" + s
	}
	return s
}

func pad4(s string) string { return strings.Repeat("0", max(0, 4-len(s))) + s }

// parseJavaInt is Integer.parseInt (bits 32) or Long.parseLong (64).
func parseJavaInt(v string, bits int) (any, error) {
	if v == "" || strings.HasPrefix(v, "+-") || strings.HasPrefix(v, "-+") {
		return nil, forInputString(v)
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(v, "+"), 10, bits)
	if err != nil || strings.HasPrefix(strings.TrimPrefix(v, "+"), "+") {
		return nil, forInputString(v)
	}
	return n, nil
}

// parseJavaRanged is Short.parseShort (16) or Byte.parseByte (8).
func parseJavaRanged(v string, bits int) (any, error) {
	n, err := parseJavaInt(v, 32)
	if err != nil {
		return nil, err
	}
	limit := int64(1) << (bits - 1)
	if x := n.(int64); x < -limit || x >= limit {
		return nil, javaException("java.lang.NumberFormatException", `Value out of range. Value:"`+v+`" Radix:10`)
	}
	return n, nil
}

// parseJavaDouble is Double.parseDouble (and Float.parseFloat): leading
// and trailing blanks are ignored, a trailing d or f too.
func parseJavaDouble(v string, bits int) (any, error) {
	t := strings.TrimFunc(v, func(r rune) bool { return r <= ' ' })
	if t == "" {
		return nil, javaException("java.lang.NumberFormatException", "empty String")
	}
	s := t
	if n := len(s); n > 1 && strings.ContainsRune("dDfF", rune(s[n-1])) && !strings.HasSuffix(strings.ToLower(s), "inf") {
		s = s[:n-1]
	}
	switch strings.TrimLeft(s, "+-") {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		if strings.HasPrefix(s, "-") {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case "inf", "Inf", "infinity", "nan":
		return nil, forInputString(v)
	}
	if strings.ContainsAny(s, "_") {
		return nil, forInputString(v)
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, nil // Java rounds to infinity or zero
		}
		return nil, forInputString(v)
	}
	return f, nil
}

func forInputString(v string) error {
	return javaException("java.lang.NumberFormatException", `For input string: "`+v+`"`)
}

// bigDecimalMessage is what new BigDecimal(text) says of text it cannot read.
func bigDecimalMessage(v string) string {
	if v == "" {
		return "Index 0 out of bounds for length 0"
	}
	for _, r := range v {
		if !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == 'e' || r == 'E') {
			return "Character " + string(r) + " is neither a decimal digit number, decimal point, nor \"e\" notation exponential mark."
		}
	}
	return "Character array is missing \"exponent\" mark 'e' or 'E'."
}

// csvSplit is CSVSaveService.csvSplitString with a comma: fields may be
// quoted with ", a doubled quote inside standing for one.
func csvSplit(line string) []string {
	var out []string
	var b strings.Builder
	quoted, start := false, true
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '"' && i+1 < len(line) && line[i+1] == '"':
			b.WriteByte('"')
			i++
		case quoted && c == '"':
			quoted = false
		case !quoted && c == '"' && start:
			quoted = true
		case !quoted && c == ',':
			out = append(out, b.String())
			b.Reset()
			start = true
			continue
		default:
			b.WriteByte(c)
		}
		start = false
	}
	return append(out, b.String())
}

// javaSplit is String.split with a one-character separator: trailing
// empty fields are dropped, and a string with no separator stays whole.
func javaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	if len(parts) == 1 {
		return parts
	}
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// bigDecimalText is BigDecimal.toString of a decimal's text as a database
// returns it: plain unless the exponent is below -6.
func bigDecimalText(s string) string {
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimLeft(s, "+-")
	intPart, frac, _ := strings.Cut(digits, ".")
	if !allDigits(intPart) || !allDigits(frac) || intPart+frac == "" {
		return s // NaN, an exponent, anything but plain digits: as it came
	}
	unscaled := strings.TrimLeft(intPart+frac, "0")
	if unscaled == "" {
		return s
	}
	adjusted := len(unscaled) - 1 - len(frac)
	if adjusted >= -6 {
		return s
	}
	m := unscaled[:1]
	if len(unscaled) > 1 {
		m += "." + unscaled[1:]
	}
	if neg {
		m = "-" + m
	}
	return m + "E" + strconv.Itoa(adjusted)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
