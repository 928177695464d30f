package ctf

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tracetui/tracetui/ingest/ctf/ctf2"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

var (
	fuzz2Once   sync.Once
	fuzz2Traces []fuzzTrace
)

// fuzz2Seeds returns the hand-written CTF 2 traces (testdata/ctf2), valid
// and invalid, with their stream.
func fuzz2Seeds(tb testing.TB) []fuzzTrace {
	fuzz2Once.Do(func() {
		root := filepath.Join("testdata", "ctf2")
		manifest, err := os.ReadFile(filepath.Join(root, "MANIFEST"))
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(manifest), "\n") {
			p := strings.Split(l, "\t")
			if len(p) < 2 || strings.HasPrefix(l, "#") {
				continue
			}
			meta, err1 := os.ReadFile(filepath.Join(root, p[0], "metadata"))
			data, err2 := os.ReadFile(filepath.Join(root, p[0], "stream"))
			if err1 == nil && err2 == nil {
				fuzz2Traces = append(fuzz2Traces, fuzzTrace{p[0], meta, data})
			}
		}
	})
	if len(fuzz2Traces) == 0 {
		tb.Skip("no CTF 2 cases (testdata/ctf2: go test ./ingest/ctf -run TestCTF2Generate -update)")
	}
	return fuzz2Traces
}

// FuzzMetadata2 parses arbitrary CTF 2 metadata (JSON text sequences) and
// compiles it into a decoding plan: refused with a *ctf2.Error or a
// *tsdl.Error, never a panic; bounded when aliases expand exponentially.
func FuzzMetadata2(f *testing.F) {
	for _, s := range fuzz2Seeds(f) {
		f.Add(s.meta)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ctf2.Parse(data)
		if err != nil {
			var e *ctf2.Error
			if !errors.As(err, &e) || !errors.Is(err, tsdl.ErrInvalid) {
				t.Fatalf("parse error is not a *ctf2.Error wrapping tsdl.ErrInvalid: %v", err)
			}
			return
		}
		if _, err := compileTrace(m, false); err != nil {
			var e *tsdl.Error
			if !errors.As(err, &e) {
				t.Fatalf("plan error is not a *tsdl.Error: %v", err)
			}
		}
	})
}

// FuzzStream2 is FuzzStream with the metadata of the hand-written CTF 2
// traces: LEB128 integers, BLOBs, optionals, bit maps.
func FuzzStream2(f *testing.F) {
	for i, s := range fuzz2Seeds(f) {
		f.Add(uint8(i), s.stream)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		seeds := fuzz2Seeds(t)
		s := seeds[int(which)%len(seeds)]
		decodeAll(t, s.meta, data)
	})
}

// TestExponentialAliases: a short CTF 2 metadata whose aliases double at
// each level is refused, not expanded.
func TestExponentialAliases(t *testing.T) {
	var b strings.Builder
	b.WriteString("\x1e{\"type\":\"preamble\",\"version\":2}\n\x1e{\"type\":\"field-class-alias\",\"name\":\"t0\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\"}}\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("\x1e{\"type\":\"field-class-alias\",\"name\":\"t" + strconv.Itoa(i) + "\",\"field-class\":{\"type\":\"structure\",\"member-classes\":[{\"name\":\"a\",\"field-class\":\"t" + strconv.Itoa(i-1) + "\"},{\"name\":\"b\",\"field-class\":\"t" + strconv.Itoa(i-1) + "\"}]}}\n")
	}
	b.WriteString("\x1e{\"type\":\"data-stream-class\"}\n\x1e{\"type\":\"event-record-class\",\"payload-field-class\":\"t40\"}\n")
	_, err := ctf2.Parse([]byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("Parse = %v, want an expansion error", err)
	}
}
