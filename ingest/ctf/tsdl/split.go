package tsdl

import (
	"bytes"
	"runtime"
)

// minSplit is the smallest metadata text parsed in two halves: below it
// the goroutine costs more than it saves. An LTTng kernel trace's
// metadata is 300 KB to 1 MB; a user-space trace's a few KB.
const minSplit = 64 << 10

// parseSplit parses a large metadata text in two halves at once, cut at a
// root declaration's ';' near the middle, and joins their declarations.
// It reports false, and the text is to be parsed whole, when the text is
// small, there is one processor, no cut is found, or either half fails
// (the whole text's parse then reports the error, at the same line as
// ever).
//
// The halves parse as the whole text would: a root declaration ends at
// the first ';' outside braces, strings, character constants and
// comments (inside them, ';' separates a block's entries), so each half is
// a whole number of root declarations, lexed from the same bytes, its
// lines numbered from where it starts.
func parseSplit(src []byte) ([]decl, bool) {
	if len(src) < minSplit || runtime.GOMAXPROCS(0) < 2 {
		return nil, false
	}
	cut := rootCut(src, len(src)/2)
	if cut < 0 {
		return nil, false
	}
	return parseHalves(src, cut)
}

// parseHalves parses src[:cut] on a new goroutine and src[cut:] on this
// one, and joins their declarations; false if either fails.
func parseHalves(src []byte, cut int) ([]decl, bool) {
	var first []decl
	var p1 *parser
	var err1 error
	done := make(chan struct{})
	go func() {
		defer close(done)
		first, p1, err1 = parseRoot(src[:cut], 1)
	}()
	second, p2, err2 := parseRoot(src[cut:], 1+bytes.Count(src[:cut], []byte("\n")))
	<-done
	if err1 != nil || err2 != nil || p1.tokens+p2.tokens > maxTokens {
		return nil, false
	}
	// A leaf type written in both halves is, parsed whole, the node of
	// its first occurrence (line included) wherever it is used.
	for kind, seen := range p2.leaves {
		for text, ts := range seen {
			if earlier := p1.leaves[kind][text]; earlier != nil {
				*ts = *earlier
			}
		}
	}
	return append(first, second...), true
}

// rootCut returns the offset just past the first ';' at or after from
// that ends a root declaration: outside braces, string and character
// literals and comments, skipped as the lexer does. -1 if there is none,
// or if the text is one the lexer would refuse before it (an unterminated
// literal, a newline in one, unbalanced braces).
func rootCut(src []byte, from int) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '{':
			depth++
		case '}':
			if depth--; depth < 0 {
				return -1
			}
		case ';':
			if depth == 0 && i >= from {
				return i + 1
			}
		case '"', '\'':
			end := literalEnd(src, i)
			if end < 0 {
				return -1
			}
			i = end
		case '/':
			if i+1 >= len(src) {
				break
			}
			switch src[i+1] {
			case '*':
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return -1 // open to the end: nothing to cut after
				}
				i += 2 + end + 1
			case '/':
				end := bytes.IndexByte(src[i:], '\n')
				if end < 0 {
					return -1
				}
				i += end
			}
		}
	}
	return -1
}

// literalEnd returns the offset of the quote closing the literal opened
// at start, escapes skipped; -1 where the lexer reports an error.
func literalEnd(src []byte, start int) int {
	q := src[start]
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case q:
			return i
		case '\n':
			return -1
		case '\\':
			i++
		}
	}
	return -1
}
