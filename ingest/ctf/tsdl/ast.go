package tsdl

// The syntax tree of a metadata text, as the parser produces it and the
// builder consumes it. Nothing here is resolved yet: type names are the
// words written, paths are strings.

// decl is one declaration in a scope (root, block or compound body).
type decl struct {
	line int
	kind declKind

	// declBlock: trace, env, clock, stream, event or callsite.
	block   string
	entries []decl // declAssign, declTypeAssign, declTypedef, declTypealias, declType

	// declAssign / declTypeAssign: lhs = rhs, lhs := typ.
	lhs []string
	rhs expr

	// declType, declTypedef, declField, declTypeAssign: the specifiers
	// and the declarators (none for a bare type definition).
	spec  *specList
	decls []declarator

	// declTypealias: typealias spec absDecl := aliasSpec, followed by
	// aliasPointers '*' (the alias's declarator holds nothing else).
	aliasSpec     *specList
	aliasPointers int
}

type declKind uint8

const (
	declBlock      declKind = iota // trace { ... };
	declAssign                     // name = value;
	declTypeAssign                 // name := type;
	declTypedef                    // typedef spec decls;
	declTypealias                  // typealias spec := alias;
	declType                       // spec; (struct/enum/variant definition)
	declField                      // spec decls; (inside struct or variant)
)

// specList is a list of declaration specifiers: C keywords and typedef
// names (words) and at most one compound or CTF type specifier.
type specList struct {
	line  int
	words []string // "unsigned", "long", "uint32_t"...
	typ   *typeSpec
}

// typeSpec is a struct, variant, enum, integer, floating_point or string
// specifier.
type typeSpec struct {
	line int
	kind string // "struct", "variant", "enum", "integer", "floating_point", "string"

	attrs []decl // integer, floating_point, string: the { ... } assignments

	name    string // struct, variant, enum name ("" if anonymous)
	hasBody bool
	body    []decl // struct, variant members and local type declarations

	align  *expr // struct ... align(N)
	tag    *expr // variant <tag>
	base   *specList
	values []enumerator
}

type enumerator struct {
	line   int
	label  string
	lo, hi *expr // nil: next value; hi nil: single value
}

// declarator is a field, typedef or alias name with its pointer and
// array parts. dims are in written order: x[2][3] has dims {2, 3}.
type declarator struct {
	line     int
	name     string // "" for an abstract declarator
	pointers int
	dims     []expr
	bitfield *expr // name : size (GNU/C bitfield)
}

// expr is a unary expression: a number (possibly negated), a string
// literal, or a path of identifiers (clock.monotonic.value,
// stream.event.header.id, le, true).
type expr struct {
	line int
	kind exprKind
	num  uint64 // exprNum: magnitude
	neg  bool   // exprNum: negative
	str  string // exprString
	path []string
}

type exprKind uint8

const (
	exprNone exprKind = iota // no value (the right side of a ':=')
	exprNum
	exprString
	exprPath
)

// pathString joins a path expression with dots.
func (e *expr) pathString() string {
	s := ""
	for i, p := range e.path {
		if i > 0 {
			s += "."
		}
		s += p
	}
	return s
}

func joinPath(p []string) string {
	s := ""
	for i, w := range p {
		if i > 0 {
			s += "."
		}
		s += w
	}
	return s
}

func joinWords(w []string) string {
	s := ""
	for i, x := range w {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}
