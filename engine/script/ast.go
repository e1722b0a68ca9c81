package script

// The syntax tree of a Groovy or BeanShell script: the part of both
// languages the translator knows. Every node keeps its position for
// messages.

// node is any syntax tree node.
type node interface{ pos() Pos }

// expr is an expression node.
type expr interface {
	node
	exprNode()
}

// stmt is a statement node.
type stmt interface {
	node
	stmtNode()
}

// typeRef is a written type: int, String, java.util.List<String>, int[].
type typeRef struct {
	at   Pos
	name string // as written, dotted: "int", "String", "java.util.Random"
	args []*typeRef
	dims int // array dimensions
}

func (t *typeRef) pos() Pos { return t.at }

// String is the type as written.
func (t *typeRef) String() string {
	s := t.name
	for i := 0; i < t.dims; i++ {
		s += "[]"
	}
	return s
}

type (
	identExpr struct {
		at   Pos
		name string
	}
	litKind uint8
	litExpr struct {
		at   Pos
		kind litKind
		val  string // digits, string value or character
	}
	gstringExpr struct {
		at    Pos
		lits  []string // len(lits) == len(exprs)+1
		exprs []expr
	}
	listExpr struct {
		at    Pos
		elems []expr
	}
	mapEntry struct {
		key expr // a literal string for an unquoted name
		val expr
	}
	mapExpr struct {
		at      Pos
		entries []mapEntry
	}
	rangeExpr struct {
		at        Pos
		from, to  expr
		exclusive bool
	}
	unaryExpr struct {
		at Pos
		op string // - + ! ~ ++ -- (prefix)
		x  expr
	}
	postfixExpr struct {
		at Pos
		op string // ++ --
		x  expr
	}
	binaryExpr struct {
		at   Pos
		op   string
		x, y expr
	}
	assignExpr struct {
		at     Pos
		op     string // = += -= …
		target expr
		value  expr
	}
	condExpr struct {
		at               Pos
		cond, then, els_ expr
	}
	elvisExpr struct {
		at      Pos
		x, els_ expr
	}
	// callExpr is name(args) or recv.name(args); a trailing closure is
	// appended to args.
	callExpr struct {
		at     Pos
		recv   expr // nil: a plain call
		name   string
		args   []expr
		named  []mapEntry // Groovy named arguments, passed as a map first
		safe   bool       // ?.
		spread bool       // *.
	}
	// invokeExpr calls the value of an expression: closure(args).
	invokeExpr struct {
		at   Pos
		fn   expr
		args []expr
	}
	propExpr struct {
		at     Pos
		x      expr
		name   string
		safe   bool
		spread bool
	}
	indexExpr struct {
		at    Pos
		x     expr
		index expr
	}
	newExpr struct {
		at      Pos
		typ     *typeRef
		args    []expr
		dimExpr []expr // new int[n]
		init    []expr // new int[]{1, 2}
		isArray bool
	}
	castExpr struct {
		at  Pos
		typ *typeRef
		x   expr
		as  bool // Groovy "x as T" rather than "(T) x"
	}
	instanceofExpr struct {
		at  Pos
		x   expr
		typ *typeRef
	}
	closureExpr struct {
		at       Pos
		params   []param
		implicit bool // no "->": one implicit parameter, it
		body     []stmt
	}
	// holeExpr is the text of a hole (a ${…} of JMeter's) in a string.
	holeExpr struct {
		at Pos
		n  int
	}
	// classExpr is a class used as a value: String.class, or a class name
	// standing alone.
	classExpr struct {
		at  Pos
		typ *typeRef
	}
)

// Literal kinds.
const (
	litNull litKind = iota
	litBool
	litInt
	litLong
	litDouble
	litFloat
	litDecimal
	litString
	litChar
)

type param struct {
	at   Pos
	typ  *typeRef // nil: untyped
	name string
	def  expr // default value
}

type (
	blockStmt struct {
		at    Pos
		stmts []stmt
	}
	exprStmt struct {
		at Pos
		x  expr
	}
	declarator struct {
		at   Pos
		name string
		dims int
		init expr
	}
	declStmt struct {
		at    Pos
		typ   *typeRef // nil: def, var or a loosely typed BeanShell name
		final bool
		vars  []declarator
	}
	ifStmt struct {
		at         Pos
		cond       expr
		then, els_ stmt
	}
	whileStmt struct {
		at   Pos
		cond expr
		body stmt
	}
	doStmt struct {
		at   Pos
		body stmt
		cond expr
	}
	forStmt struct {
		at     Pos
		init   []stmt
		cond   expr
		update []expr
		body   stmt
	}
	forInStmt struct {
		at   Pos
		typ  *typeRef
		name string
		iter expr
		body stmt
	}
	returnStmt struct {
		at Pos
		x  expr
	}
	breakStmt struct {
		at Pos
	}
	continueStmt struct {
		at Pos
	}
	throwStmt struct {
		at Pos
		x  expr
	}
	catchClause struct {
		at    Pos
		types []*typeRef // nil: catch (e) — any exception
		name  string
		body  *blockStmt
	}
	tryStmt struct {
		at      Pos
		body    *blockStmt
		catches []catchClause
		finally *blockStmt
	}
	switchCase struct {
		at    Pos
		exprs []expr // empty: default
		dflt  bool
		body  []stmt
	}
	switchStmt struct {
		at    Pos
		x     expr
		cases []switchCase
	}
	assertStmt struct {
		at   Pos
		cond expr
		msg  expr
		src  string // the asserted expression as written
	}
	importStmt struct {
		at     Pos
		path   string
		static bool
		star   bool
		alias  string
	}
	methodDecl struct {
		at     Pos
		name   string
		ret    *typeRef
		params []param
		body   *blockStmt
	}
	emptyStmt struct{ at Pos }
)

func (e *identExpr) pos() Pos      { return e.at }
func (e *litExpr) pos() Pos        { return e.at }
func (e *gstringExpr) pos() Pos    { return e.at }
func (e *listExpr) pos() Pos       { return e.at }
func (e *mapExpr) pos() Pos        { return e.at }
func (e *rangeExpr) pos() Pos      { return e.at }
func (e *unaryExpr) pos() Pos      { return e.at }
func (e *postfixExpr) pos() Pos    { return e.at }
func (e *binaryExpr) pos() Pos     { return e.at }
func (e *assignExpr) pos() Pos     { return e.at }
func (e *condExpr) pos() Pos       { return e.at }
func (e *elvisExpr) pos() Pos      { return e.at }
func (e *callExpr) pos() Pos       { return e.at }
func (e *invokeExpr) pos() Pos     { return e.at }
func (e *propExpr) pos() Pos       { return e.at }
func (e *indexExpr) pos() Pos      { return e.at }
func (e *newExpr) pos() Pos        { return e.at }
func (e *castExpr) pos() Pos       { return e.at }
func (e *instanceofExpr) pos() Pos { return e.at }
func (e *closureExpr) pos() Pos    { return e.at }
func (e *classExpr) pos() Pos      { return e.at }
func (e *holeExpr) pos() Pos       { return e.at }

func (*identExpr) exprNode()      {}
func (*litExpr) exprNode()        {}
func (*gstringExpr) exprNode()    {}
func (*listExpr) exprNode()       {}
func (*mapExpr) exprNode()        {}
func (*rangeExpr) exprNode()      {}
func (*unaryExpr) exprNode()      {}
func (*postfixExpr) exprNode()    {}
func (*binaryExpr) exprNode()     {}
func (*assignExpr) exprNode()     {}
func (*condExpr) exprNode()       {}
func (*elvisExpr) exprNode()      {}
func (*callExpr) exprNode()       {}
func (*invokeExpr) exprNode()     {}
func (*propExpr) exprNode()       {}
func (*indexExpr) exprNode()      {}
func (*newExpr) exprNode()        {}
func (*castExpr) exprNode()       {}
func (*instanceofExpr) exprNode() {}
func (*closureExpr) exprNode()    {}
func (*classExpr) exprNode()      {}
func (*holeExpr) exprNode()       {}

func (s *blockStmt) pos() Pos    { return s.at }
func (s *exprStmt) pos() Pos     { return s.at }
func (s *declStmt) pos() Pos     { return s.at }
func (s *ifStmt) pos() Pos       { return s.at }
func (s *whileStmt) pos() Pos    { return s.at }
func (s *doStmt) pos() Pos       { return s.at }
func (s *forStmt) pos() Pos      { return s.at }
func (s *forInStmt) pos() Pos    { return s.at }
func (s *returnStmt) pos() Pos   { return s.at }
func (s *breakStmt) pos() Pos    { return s.at }
func (s *continueStmt) pos() Pos { return s.at }
func (s *throwStmt) pos() Pos    { return s.at }
func (s *tryStmt) pos() Pos      { return s.at }
func (s *switchStmt) pos() Pos   { return s.at }
func (s *assertStmt) pos() Pos   { return s.at }
func (s *importStmt) pos() Pos   { return s.at }
func (s *methodDecl) pos() Pos   { return s.at }
func (s *emptyStmt) pos() Pos    { return s.at }

func (*blockStmt) stmtNode()    {}
func (*exprStmt) stmtNode()     {}
func (*declStmt) stmtNode()     {}
func (*ifStmt) stmtNode()       {}
func (*whileStmt) stmtNode()    {}
func (*doStmt) stmtNode()       {}
func (*forStmt) stmtNode()      {}
func (*forInStmt) stmtNode()    {}
func (*returnStmt) stmtNode()   {}
func (*breakStmt) stmtNode()    {}
func (*continueStmt) stmtNode() {}
func (*throwStmt) stmtNode()    {}
func (*tryStmt) stmtNode()      {}
func (*switchStmt) stmtNode()   {}
func (*assertStmt) stmtNode()   {}
func (*importStmt) stmtNode()   {}
func (*methodDecl) stmtNode()   {}
func (*emptyStmt) stmtNode()    {}
