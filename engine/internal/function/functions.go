package function

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/internal/java"
)

// refusedFunctions are functions that run code from the plan in a JVM
// language gojm does not embed: a plan calling one is refused by name.
var refusedFunctions = map[string]string{
	"__jexl": "the JEXL 1 function was removed from JMeter; use __jexl3",
}

// builtin is the table of the JMeter functions of this package, by name,
// with JMeter's argument counts.
var builtin = map[string]Def{
	"__P":                      {1, 2, fnP},
	"__property":               {1, 3, fnProperty},
	"__setProperty":            {2, 3, fnSetProperty},
	"__isPropDefined":          {1, 1, fnIsPropDefined},
	"__threadNum":              {0, 0, fnThreadNum},
	"__threadGroupName":        {0, 0, constFn(func(vu *element.VU) string { return vu.Group.Name })},
	"__TestPlanName":           {0, 0, constFn(func(vu *element.VU) string { return vu.Plan.FileName() })},
	"__samplerName":            {0, 1, fnSamplerName},
	"__Random":                 {2, 3, fnRandom},
	"__RandomString":           {1, 3, fnRandomString},
	"__RandomFromMultipleVars": {1, 2, fnRandomFromMultipleVars},
	"__UUID":                   {0, 0, constFn(func(*element.VU) string { return uuid4() })},
	"__counter":                {1, 2, fnCounter},
	"__V":                      {1, 2, fnV},
	"__eval":                   {1, 1, fnEval},
	"__evalVar":                {1, 1, fnEvalVar},
	"__isVarDefined":           {1, 1, fnIsVarDefined},
	"__intSum":                 {2, -1, fnIntSum},
	"__longSum":                {2, -1, fnLongSum},
	"__split":                  {2, 3, fnSplit},
	"__char":                   {1, -1, fnChar},
	"__changeCase":             {1, 3, fnChangeCase},
	"__machineName":            {0, 1, fnMachineName},
	"__machineIP":              {0, 1, fnMachineIP},
	"__log":                    {1, 4, fnLog(true)},
	"__logn":                   {1, 3, fnLog(false)},

	"__time":            {0, 2, fnTime},
	"__timeShift":       {4, 5, fnTimeShift},
	"__dateTimeConvert": {3, 4, fnDateTimeConvert},
	"__RandomDate":      {3, 5, fnRandomDate},

	"__urlencode":            {1, 1, fnURLEncode},
	"__urldecode":            {1, 1, fnURLDecode},
	"__escapeHtml":           {1, 1, fnEscapeHTML},
	"__unescapeHtml":         {1, 1, fnUnescapeHTML},
	"__escapeXml":            {1, 1, fnEscapeXML},
	"__unescape":             {1, 1, fnUnescape},
	"__escapeOroRegexpChars": {1, 2, fnEscapeRegexp},
	"__digest":               {2, 5, fnDigest},
	"__base64Encode":         {1, 2, fnBase64Encode},
	"__base64Decode":         {1, 2, fnBase64Decode},

	"__StringFromFile": {1, 4, fnStringFromFile},
	"__FileToString":   {1, 3, fnFileToString},
	"__CSVRead":        {2, 2, fnCSVRead},

	"__jexl2":      {1, 2, fnJexl},
	"__jexl3":      {1, 2, fnJexl},
	"__javaScript": {1, 2, fnJavaScript},
}

// functionTable returns the table of every function: this package's and
// extra, the functions of other element families.
func Table(extra map[string]Def) map[string]Def {
	t := maps.Clone(builtin)
	maps.Copy(t, extra)
	return t
}

// constFn builds a function that takes no arguments.
func constFn(f func(vu *element.VU) string) func(*Compiler, []*element.Template) (element.Function, error) {
	return func(*Compiler, []*element.Template) (element.Function, error) { return element.FuncFunc(f), nil }
}

// storeAs returns f, also saving its value in the variable named by the
// optional argument v, as JMeter's functions with a "name of variable"
// argument do (a blank name saves nothing).
func StoreAs(v *element.Template, f func(vu *element.VU) string) element.Function {
	if v == nil {
		return element.FuncFunc(f)
	}
	if v.Const() {
		name := strings.TrimSpace(v.Raw())
		if name == "" {
			return element.FuncFunc(f)
		}
		return element.FuncFunc(func(vu *element.VU) string {
			s := f(vu)
			vu.Vars.Put(name, s)
			return s
		})
	}
	return element.FuncFunc(func(vu *element.VU) string {
		s := f(vu)
		if name := strings.TrimSpace(v.Eval(vu)); name != "" {
			vu.Vars.Put(name, s)
		}
		return s
	})
}

// ${__threadNum}: the user's number in its thread group.
func fnThreadNum(*Compiler, []*element.Template) (element.Function, error) {
	return intFunc(func(vu *element.VU) (int64, bool) { return int64(vu.Num), true }), nil
}

// intFunc is a function whose value is a whole number, or "" when ok is
// false: a template writes the number in place (element.Appender).
type intFunc func(vu *element.VU) (n int64, ok bool)

func (f intFunc) Eval(vu *element.VU) string {
	if n, ok := f(vu); ok {
		return strconv.FormatInt(n, 10)
	}
	return ""
}

func (f intFunc) Append(vu *element.VU, dst []byte) []byte {
	if n, ok := f(vu); ok {
		return strconv.AppendInt(dst, n, 10)
	}
	return dst
}

// storeIntAs is StoreAs for a function whose value is a number: without a
// variable to save it in, the number is written in place.
func storeIntAs(v *element.Template, f intFunc) element.Function {
	if v == nil || v.Const() && strings.TrimSpace(v.Raw()) == "" {
		return f
	}
	return StoreAs(v, f.Eval)
}

func Arg(args []*element.Template, i int) *element.Template {
	if i < len(args) {
		return args[i]
	}
	return nil
}

// evalOr evaluates an optional argument, giving def when it is absent.
func EvalOr(t *element.Template, vu *element.VU, def string) string {
	if t == nil {
		return def
	}
	return t.Eval(vu)
}

// propDefault is JMeter's JMeterUtils.getPropDefault: the property, or the
// default, trimmed either way.
func propDefault(vu *element.VU, name, def string) string {
	if s, ok := vu.Plan.Props.Get(name); ok {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(def)
}

// ${__P(name,default)}: a property, or the default ("1" when none is given).
func fnP(_ *Compiler, args []*element.Template) (element.Function, error) {
	name, def := args[0], Arg(args, 1)
	if name.Const() && (def == nil || def.Const()) {
		return &constProp{name: name.Raw(), def: EvalOr(def, nil, "1")}, nil
	}
	return element.FuncFunc(func(vu *element.VU) string {
		return propDefault(vu, name.Eval(vu), EvalOr(def, vu, "1"))
	}), nil
}

// constProp is ${__P(name,default)} with constant arguments, the usual
// ${__P(host,localhost)}: its value changes only when a property is set,
// so it is kept with the properties' version it was read at and looked up
// again only when that version is gone. Every virtual user shares it.
type constProp struct {
	name, def string
	last      atomic.Pointer[propValue]
}

type propValue struct {
	props   *element.Props
	version uint64
	value   string
}

func (f *constProp) Eval(vu *element.VU) string {
	props := vu.Plan.Props
	v := props.Version() // before reading: a change after it is seen next time
	if last := f.last.Load(); last != nil && last.version == v && last.props == props {
		return last.value
	}
	s := propDefault(vu, f.name, f.def)
	f.last.Store(&propValue{props, v, s})
	return s
}

// ${__property(name,var,default)}: a property, or the default (the
// property's name when none is given).
func fnProperty(_ *Compiler, args []*element.Template) (element.Function, error) {
	name, v, def := args[0], Arg(args, 1), Arg(args, 2)
	return StoreAs(v, func(vu *element.VU) string {
		n := name.Eval(vu)
		return propDefault(vu, n, EvalOr(def, vu, n))
	}), nil
}

// ${__setProperty(name,value,returnOriginal)}
func fnSetProperty(_ *Compiler, args []*element.Template) (element.Function, error) {
	name, value, ret := args[0], args[1], Arg(args, 2)
	return element.FuncFunc(func(vu *element.VU) string {
		n := name.Eval(vu)
		old, _ := vu.Plan.Props.Get(n)
		vu.Plan.Props.Set(n, value.Eval(vu))
		if ret != nil && strings.EqualFold(strings.TrimSpace(ret.Eval(vu)), "true") {
			return old
		}
		return ""
	}), nil
}

// ${__isPropDefined(name)}: "true" or "false".
func fnIsPropDefined(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string {
		_, ok := vu.Plan.Props.Get(args[0].Eval(vu))
		return strconv.FormatBool(ok)
	}), nil
}

func fnSamplerName(_ *Compiler, args []*element.Template) (element.Function, error) {
	return StoreAs(Arg(args, 0), func(vu *element.VU) string { return vu.SamplerName }), nil
}

// ${__Random(min,max,var)}: an integer in [min, max].
func fnRandom(_ *Compiler, args []*element.Template) (element.Function, error) {
	lo, hi, v := args[0], args[1], Arg(args, 2)
	bound := func(vu *element.VU, t *element.Template) (int64, error) {
		return strconv.ParseInt(strings.TrimSpace(t.Eval(vu)), 10, 64)
	}
	if lo.Const() && hi.Const() { // the usual ${__Random(1,100)}: bounds read once
		a, err1 := bound(nil, lo)
		b, err2 := bound(nil, hi)
		bound = func(_ *element.VU, t *element.Template) (int64, error) {
			if t == lo {
				return a, err1
			}
			return b, err2
		}
	}
	return storeIntAs(v, func(vu *element.VU) (int64, bool) {
		a, err1 := bound(vu, lo)
		b, err2 := bound(vu, hi)
		if err1 != nil || err2 != nil || b < a {
			vu.Warnf("__Random(%s,%s): the bounds are not whole numbers with min <= max", lo.Eval(vu), hi.Eval(vu))
			return 0, false
		}
		span := uint64(b-a) + 1
		if span == 0 { // the whole int64 range
			return int64(vu.Rand.Uint64()), true
		}
		return a + int64(vu.Rand.Uint64N(span)), true
	}), nil
}

// ${__RandomString(length,chars,var)}: length characters drawn from chars,
// or from any printable Unicode character when chars is blank.
func fnRandomString(_ *Compiler, args []*element.Template) (element.Function, error) {
	length, chars, v := args[0], Arg(args, 1), Arg(args, 2)
	var constChars []rune
	if chars != nil && chars.Const() {
		constChars = []rune(strings.TrimSpace(chars.Raw()))
	}
	return StoreAs(v, func(vu *element.VU) string {
		n, err := strconv.Atoi(length.Eval(vu))
		if err != nil || n < 0 {
			vu.Warnf("__RandomString: length %q is not a whole number", length.Eval(vu))
			return ""
		}
		set := constChars
		if chars != nil && !chars.Const() {
			set = []rune(strings.TrimSpace(chars.Eval(vu)))
		}
		var b strings.Builder
		b.Grow(n)
		for range n {
			if len(set) > 0 {
				b.WriteRune(set[vu.Rand.IntN(len(set))])
				continue
			}
			for {
				r := rune(0x20 + vu.Rand.IntN(0xFFFD-0x20))
				if unicode.IsPrint(r) && !unicode.Is(unicode.Cs, r) {
					b.WriteRune(r)
					break
				}
			}
		}
		return b.String()
	}), nil
}

// ${__RandomFromMultipleVars(var1|var2…,var)}: the value of one of the
// named variables (or of one of the name_1… values of a multi-valued one).
func fnRandomFromMultipleVars(_ *Compiler, args []*element.Template) (element.Function, error) {
	names, v := args[0], Arg(args, 1)
	return StoreAs(v, func(vu *element.VU) string {
		var vals []string
		for _, n := range strings.Split(names.Eval(vu), "|") {
			n = strings.TrimSpace(n)
			if cnt, ok := vu.Vars.Get(n + "_matchNr"); ok {
				k, _ := strconv.Atoi(cnt)
				for i := 1; i <= k; i++ {
					if s, ok := vu.Vars.Get(n + "_" + strconv.Itoa(i)); ok {
						vals = append(vals, s)
					}
				}
			} else if s, ok := vu.Vars.Get(n); ok {
				vals = append(vals, s)
			}
		}
		if len(vals) == 0 {
			return ""
		}
		return vals[vu.Rand.IntN(len(vals))]
	}), nil
}

// ${__counter(perUser,var)}: 1, 2, 3… for each virtual user (TRUE) or for
// the whole run (FALSE). Each call in the plan counts on its own.
func fnCounter(tp *Compiler, args []*element.Template) (element.Function, error) {
	perUser := strings.EqualFold(strings.TrimSpace(args[0].Raw()), "TRUE")
	v := Arg(args, 1)
	if perUser {
		if tp.runtime {
			return nil, fmt.Errorf("__counter(TRUE) cannot be built while the plan runs")
		}
		count := element.NewLocal(tp.plan, func(*element.VU) *int64 { return new(int64) })
		return StoreAs(v, func(vu *element.VU) string {
			n := count.Get(vu)
			*n++
			return strconv.FormatInt(*n, 10)
		}), nil
	}
	if tp.runtime {
		return nil, fmt.Errorf("__counter(FALSE) cannot be built while the plan runs")
	}
	count := element.NewShared(tp.plan, func(*element.VU) *atomic.Int64 { return new(atomic.Int64) })
	return StoreAs(v, func(vu *element.VU) string { return strconv.FormatInt(count.Get(vu).Add(1), 10) }), nil
}

// ${__V(name,default)}: the variable whose name is itself computed, or the
// default (the name itself when none is given).
func fnV(_ *Compiler, args []*element.Template) (element.Function, error) {
	name, def := args[0], Arg(args, 1)
	return element.FuncFunc(func(vu *element.VU) string {
		n := name.Eval(vu)
		if s, ok := vu.Vars.Get(n); ok {
			return s
		}
		return EvalOr(def, vu, n)
	}), nil
}

// evalCache holds templates compiled while the plan runs (__eval,
// __evalVar), by source text.
type evalCache struct {
	texts *cache.Func[string, *element.Template]
}

const evalCacheMax = 4096

func (c *evalCache) eval(vu *element.VU, src string) string {
	if !strings.Contains(src, "${") {
		return src
	}
	t, err := c.texts.Get(src)
	if err != nil {
		vu.Warnf("__eval: %v", err)
		return src
	}
	return t.Eval(vu)
}

func (tp *Compiler) newEvalCache() *evalCache {
	rt := &Compiler{plan: tp.plan, syms: tp.syms, table: tp.table, runtime: true}
	return &evalCache{texts: cache.NewFunc(evalCacheMax, rt.Compile)}
}

// ${__eval(text)}: text's ${…} references, evaluated.
func fnEval(tp *Compiler, args []*element.Template) (element.Function, error) {
	cache := tp.newEvalCache()
	return element.FuncFunc(func(vu *element.VU) string { return cache.eval(vu, args[0].Eval(vu)) }), nil
}

// ${__evalVar(name)}: the value of a variable, with its ${…} references
// evaluated; "" when the variable is not defined.
func fnEvalVar(tp *Compiler, args []*element.Template) (element.Function, error) {
	cache := tp.newEvalCache()
	return element.FuncFunc(func(vu *element.VU) string {
		s, ok := vu.Vars.Get(args[0].Eval(vu))
		if !ok {
			return ""
		}
		return cache.eval(vu, s)
	}), nil
}

// ${__isVarDefined(name)}: "true" or "false".
func fnIsVarDefined(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string {
		_, ok := vu.Vars.Get(args[0].Eval(vu))
		return strconv.FormatBool(ok)
	}), nil
}

// sum is __intSum and __longSum: every argument but the last is a number;
// the last is a number too, or else the name of the variable to set.
func fnSum(bits int) func(*Compiler, []*element.Template) (element.Function, error) {
	name := "__intSum"
	if bits == 64 {
		name = "__longSum"
	}
	return func(_ *Compiler, args []*element.Template) (element.Function, error) {
		return element.FuncFunc(func(vu *element.VU) string {
			var sum int64
			for _, a := range args[:len(args)-1] {
				n, err := strconv.ParseInt(a.Eval(vu), 10, bits)
				if err != nil {
					vu.Warnf("%s: %v", name, err)
					return ""
				}
				sum += n
			}
			last := strings.TrimSpace(args[len(args)-1].Eval(vu))
			n, err := strconv.ParseInt(last, 10, bits)
			if err == nil {
				sum += n
				last = ""
			}
			if bits == 32 {
				sum = int64(int32(sum)) // Java int arithmetic wraps
			}
			s := strconv.FormatInt(sum, 10)
			if last != "" {
				vu.Vars.Put(last, s)
			}
			return s
		}), nil
	}
}

var (
	fnIntSum  = fnSum(32)
	fnLongSum = fnSum(64)
)

// ${__split(text,var,separator)}: sets var, var_n and var_1… from text cut
// at any of the separator's characters (default ","). An empty field is
// "?", an empty first field is dropped, as JMeter's StringTokenizer-based
// split does.
func fnSplit(_ *Compiler, args []*element.Template) (element.Function, error) {
	text, prefix, sep := args[0], args[1], Arg(args, 2)
	return element.FuncFunc(func(vu *element.VU) string {
		s := text.Eval(vu)
		p := strings.TrimSpace(prefix.Eval(vu))
		delims := EvalOr(sep, vu, ",")
		if delims == "" {
			delims = ","
		}
		parts := splitTokens(s, delims, "?")
		vu.Vars.Put(p, s)
		vu.Vars.Put(p+"_n", strconv.Itoa(len(parts)))
		for i, v := range parts {
			vu.Vars.Put(p+"_"+strconv.Itoa(i+1), v)
		}
		vu.Vars.Remove(p + "_" + strconv.Itoa(len(parts)+1))
		return s
	}), nil
}

// splitTokens is JOrphanUtils.split(s, delims, def): delims is a set of
// characters; two delimiters in a row and a trailing one give def.
func splitTokens(s, delims, def string) []string {
	var out []string
	lastWasDelim := false
	start := -1
	for i, r := range s {
		if strings.ContainsRune(delims, r) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			} else if lastWasDelim {
				out = append(out, def)
			}
			lastWasDelim = true
			continue
		}
		if start < 0 {
			start = i
		}
		lastWasDelim = false
	}
	if start >= 0 {
		out = append(out, s[start:])
	} else if lastWasDelim {
		out = append(out, def)
	}
	return out
}

// ${__char(65,0x42,…)}: the characters with those codes (decimal, 0x or #
// hexadecimal, 0 octal).
func fnChar(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string {
		var b strings.Builder
		for _, a := range args {
			s := strings.TrimSpace(a.Eval(vu))
			n, err := java.DecodeLong(s)
			if err != nil {
				vu.Warnf("__char: could not parse %q", s)
				continue
			}
			b.WriteRune(rune(uint16(n))) // Java's (char) cast
		}
		return b.String()
	}), nil
}

// ${__changeCase(text,mode,var)}: UPPER (default), LOWER or CAPITALIZE.
func fnChangeCase(_ *Compiler, args []*element.Template) (element.Function, error) {
	text, mode, v := args[0], Arg(args, 1), Arg(args, 2)
	return StoreAs(v, func(vu *element.VU) string {
		s := text.Eval(vu)
		switch m := strings.ToUpper(EvalOr(mode, vu, "")); m {
		case "", "UPPER":
			return strings.ToUpper(s)
		case "LOWER":
			return strings.ToLower(s)
		case "CAPITALIZE":
			r, n := utf8.DecodeRuneInString(s)
			if n == 0 {
				return s
			}
			return string(unicode.ToTitle(r)) + s[n:]
		default:
			vu.Warnf("__changeCase: unknown mode %s, text left unchanged", m)
			return s
		}
	}), nil
}

var machine struct {
	once     sync.Once
	name, ip string
}

// machineInfo returns the host's name and the address it resolves to, as
// Java's InetAddress.getLocalHost() does; looked up once.
func machineInfo() (string, string) {
	machine.once.Do(func() {
		machine.name, _ = os.Hostname()
		machine.ip = "127.0.0.1"
		if addrs, err := net.LookupHost(machine.name); err == nil && len(addrs) > 0 {
			machine.ip = addrs[0]
			for _, a := range addrs {
				if ip := net.ParseIP(a); ip != nil && ip.To4() != nil {
					machine.ip = a
					break
				}
			}
		}
	})
	return machine.name, machine.ip
}

func fnMachineName(_ *Compiler, args []*element.Template) (element.Function, error) {
	return StoreAs(Arg(args, 0), func(*element.VU) string { n, _ := machineInfo(); return n }), nil
}

func fnMachineIP(_ *Compiler, args []*element.Template) (element.Function, error) {
	return StoreAs(Arg(args, 0), func(*element.VU) string { _, ip := machineInfo(); return ip }), nil
}

// ${__log(text,level,throwable,comment)} logs text and returns it;
// ${__logn(…)} returns "". Level OUT and ERR print to stdout and stderr.
func fnLog(ret bool) func(*Compiler, []*element.Template) (element.Function, error) {
	return func(_ *Compiler, args []*element.Template) (element.Function, error) {
		text, level, thr := args[0], Arg(args, 1), Arg(args, 2)
		var comment *element.Template
		if ret {
			comment = Arg(args, 3)
		}
		return element.FuncFunc(func(vu *element.VU) string {
			s := text.Eval(vu)
			msg := vu.Name + " : "
			if c := EvalOr(comment, vu, ""); c != "" {
				msg += c + " : "
			}
			msg += s
			if t := EvalOr(thr, vu, ""); t != "" {
				msg += " (" + t + ")"
			}
			switch strings.ToUpper(strings.TrimSpace(EvalOr(level, vu, ""))) {
			case "OUT":
				fmt.Fprintln(os.Stdout, msg)
			case "ERR":
				fmt.Fprintln(os.Stderr, msg)
			case "ERROR", "FATAL_ERROR", "FATAL":
				vu.Log.Error(msg)
			case "WARN":
				vu.Log.Warn(msg)
			case "DEBUG":
				vu.Log.Debug(msg)
			default:
				vu.Log.Info(msg)
			}
			if ret {
				return s
			}
			return ""
		}), nil
	}
}

// uuid4 returns a random (version 4) UUID.
func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:16])
	return string(out[:])
}
