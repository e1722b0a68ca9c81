package script

import (
	"math"
	"strconv"
	"strings"

	"github.com/gojm/gojm/internal/java"
)

// The values of the direct path: the Java values a short script over
// vars, props, prev and strings handles (null, boolean, int, long,
// double, String), kept in a struct so that a run allocates only the
// strings it makes. Every operation here keeps the rules of the runtime's
// JavaScript (runtime_core.js) for these kinds; a case whose rule it does
// not carry (a Java exception, a kind it does not hold) bails out, and
// the run starts again on the translation.

type vkind uint8

const (
	vNull vkind = iota
	vBool
	vInt // n holds an int32
	vLong
	vDouble // n holds the bits of a float64
	vString
)

type val struct {
	k vkind
	s string
	n int64
}

var nullVal = val{}

func boolVal(b bool) val {
	if b {
		return val{k: vBool, n: 1}
	}
	return val{k: vBool}
}
func intVal(i int32) val      { return val{k: vInt, n: int64(i)} }
func longVal(i int64) val     { return val{k: vLong, n: i} }
func doubleVal(f float64) val { return val{k: vDouble, n: int64(math.Float64bits(f))} }
func strVal(s string) val     { return val{k: vString, s: s} }

func (v val) f() float64  { return math.Float64frombits(uint64(v.n)) }
func (v val) isNum() bool { return v.k == vInt || v.k == vLong || v.k == vDouble }

// rank is the runtime's numeric rank: 1 int, 2 long, 4 double.
func (v val) rank() int {
	switch v.k {
	case vInt:
		return 1
	case vLong:
		return 2
	}
	return 4
}

func (v val) double() float64 {
	if v.k == vDouble {
		return v.f()
	}
	return float64(v.n)
}

// bailout stops a direct run: the run is taken again on the translation,
// which carries every rule (and every exception's exact text).
type bailout struct{}

func bail() { panic(bailout{}) }

// str is Java's (and Groovy's) toString of a value.
func (v val) str() string {
	switch v.k {
	case vString:
		return v.s
	case vBool:
		if v.n != 0 {
			return "true"
		}
		return "false"
	case vInt, vLong:
		return strconv.FormatInt(v.n, 10)
	case vDouble:
		return java.DoubleString(v.f())
	}
	return "null"
}

// truth is Groovy truth; in BeanShell a condition must be a boolean.
func (v val) truth(d Dialect) bool {
	if d == BeanShell {
		if v.k != vBool {
			bail()
		}
		return v.n != 0
	}
	switch v.k {
	case vBool, vInt, vLong:
		return v.n != 0
	case vDouble:
		return v.f() != 0
	case vString:
		return v.s != ""
	}
	return false
}

// ascii reports whether s is plain ASCII: Java's indexes count UTF-16
// units and its case mappings follow Unicode, so the direct path keeps
// index and case methods to ASCII text.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func add(a, b val) val {
	if a.k == vString || b.k == vString {
		return strVal(a.str() + b.str())
	}
	return arith('+', a, b, Groovy)
}

// arith is + - * / % on two numbers: int stays int (wrapping), long if
// either is long, double if either is double. Groovy's / on integers
// makes a BigDecimal, which the direct path does not hold.
func arith(op byte, a, b val, d Dialect) val {
	if !a.isNum() || !b.isNum() {
		bail()
	}
	switch max(a.rank(), b.rank()) {
	case 1:
		x, y := int32(a.n), int32(b.n)
		switch op {
		case '+':
			return intVal(x + y)
		case '-':
			return intVal(x - y)
		case '*':
			return intVal(x * y)
		case '/', '%':
			if y == 0 || d == Groovy && op == '/' {
				bail()
			}
			if x == math.MinInt32 && y == -1 {
				if op == '/' {
					return intVal(x)
				}
				return intVal(0)
			}
			if op == '/' {
				return intVal(x / y)
			}
			return intVal(x % y)
		}
	case 2:
		x, y := a.n, b.n
		switch op {
		case '+':
			return longVal(x + y)
		case '-':
			return longVal(x - y)
		case '*':
			return longVal(x * y)
		case '/', '%':
			if y == 0 || d == Groovy && op == '/' {
				bail()
			}
			if x == math.MinInt64 && y == -1 {
				if op == '/' {
					return longVal(x)
				}
				return longVal(0)
			}
			if op == '/' {
				return longVal(x / y)
			}
			return longVal(x % y)
		}
	default:
		x, y := a.double(), b.double()
		switch op {
		case '+':
			return doubleVal(x + y)
		case '-':
			return doubleVal(x - y)
		case '*':
			return doubleVal(x * y)
		case '/':
			return doubleVal(x / y)
		case '%':
			return doubleVal(math.Mod(x, y))
		}
	}
	bail()
	return nullVal
}

// numCmp compares two numbers: -1, 0, 1, or 2 when either is NaN.
func numCmp(a, b val) int {
	if max(a.rank(), b.rank()) == 4 {
		x, y := a.double(), b.double()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		case x == y:
			return 0
		}
		return 2
	}
	switch {
	case a.n < b.n:
		return -1
	case a.n > b.n:
		return 1
	}
	return 0
}

// eq is Groovy's ==; BeanShell's compares primitives by value and objects
// by reference (two equal strings: the translation says what that means).
func eq(a, b val, d Dialect) bool {
	if a.k == vNull || b.k == vNull {
		return a.k == b.k
	}
	if a.isNum() && b.isNum() {
		return numCmp(a, b) == 0
	}
	if d == BeanShell && (a.k == vBool) != (b.k == vBool) {
		return false
	}
	if a.k != b.k {
		return false
	}
	if a.k == vString {
		if d == BeanShell && a.s == b.s {
			bail()
		}
		return a.s == b.s
	}
	return a.n == b.n
}

// compare is < <= > >=: numbers, ASCII strings, and in Groovy booleans
// and nulls.
func compare(op string, a, b val, d Dialect) bool {
	var c int
	switch {
	case a.isNum() && b.isNum():
		c = numCmp(a, b)
		if c == 2 {
			return false
		}
	case a.k == vString && b.k == vString && ascii(a.s) && ascii(b.s):
		c = strings.Compare(a.s, b.s)
	case d == Groovy && (a.k == vNull || b.k == vNull):
		switch {
		case a.k == b.k:
			c = 0
		case a.k == vNull:
			c = -1
		default:
			c = 1
		}
	case d == Groovy && a.k == vBool && b.k == vBool:
		c = int(a.n - b.n)
	default:
		bail()
	}
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// cast is an assignment to a typed variable: the conversions the
// runtime's $.cast makes between these kinds.
func cast(v val, t string, d Dialect) val {
	switch t {
	case "", "def", "Object":
		return v
	case "int", "long", "double", "boolean":
		if v.k == vNull {
			bail()
		}
	}
	if v.k == vNull {
		switch t {
		case "Integer", "Long", "Double", "Boolean", "String", "CharSequence":
			return v
		}
		bail()
	}
	switch t {
	case "int", "Integer":
		switch v.k {
		case vInt:
			return v
		case vLong:
			return intVal(int32(v.n))
		}
	case "long", "Long":
		if v.k == vInt || v.k == vLong {
			return longVal(v.n)
		}
	case "double", "Double":
		if v.isNum() {
			return doubleVal(v.double())
		}
	case "boolean", "Boolean":
		if v.k == vBool {
			return v
		}
	case "String", "CharSequence":
		if v.k == vString {
			return v
		}
		if d == Groovy && v.k != vNull {
			return strVal(v.str())
		}
	}
	bail()
	return nullVal
}

// parseInt is Integer.parseInt and Long.parseLong of plain ASCII digits;
// anything else bails (the translation throws Java's exception).
func parseInt(s string, bits int) int64 {
	if s == "" || s[0] != '-' && s[0] != '+' && (s[0] < '0' || s[0] > '9') {
		bail()
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			bail()
		}
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		bail()
	}
	return n
}
