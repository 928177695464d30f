package tsdl

import (
	"reflect"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// checkHalves parses text cut at the root declaration boundary found
// from each of froms, and fails t when the two halves parse to anything
// but what the whole text parses to.
func checkHalves(t testing.TB, text []byte, froms ...int) {
	t.Helper()
	whole, _, wholeErr := parseRoot(text, 1)
	for _, from := range froms {
		cut := rootCut(text, from)
		if cut < 0 {
			continue
		}
		if cut <= from || text[cut-1] != ';' {
			t.Fatalf("rootCut(%d) = %d: not just past a ';' after it", from, cut)
		}
		halves, ok := parseHalves(text, cut)
		if !ok {
			continue // parsed whole: same result by construction
		}
		if wholeErr != nil {
			t.Fatalf("cut at %d: the halves parse, the whole text does not: %v", cut, wholeErr)
		}
		if !reflect.DeepEqual(halves, whole) {
			t.Fatalf("cut at %d: the halves parse to other declarations than the whole text", cut)
		}
	}
}

// TestParseHalvesRealMetadata cuts real and generated LTTng metadata at
// random offsets: the halves parse to the whole text's declarations.
func TestParseHalvesRealMetadata(t *testing.T) {
	rng := coretest.Rand(t)
	for _, text := range metadataTexts(t) {
		froms := make([]int, 8)
		for i := range froms {
			froms[i] = rng.IntN(len(text))
		}
		checkHalves(t, text, froms...)
	}
}

// FuzzParseHalves checks that metadata cut at a root declaration parses,
// in two halves, to what it parses to whole.
func FuzzParseHalves(f *testing.F) {
	f.Add([]byte(prelude + `event { name = "e"; fields := struct { uint8_t a[2]; uint32_t n; uint8_t s[n]; }; };`))
	f.Add([]byte(prelude + `/* ; { */ typealias string { encoding = "a;b\"}"; } := s; // ; }
		event { name = 'x'; }; event { name = "e;"; fields := struct { s x; }; };`))
	f.Fuzz(func(t *testing.T, text []byte) {
		checkHalves(t, text, 0, len(text)/4, len(text)/2, 3*len(text)/4)
	})
}
