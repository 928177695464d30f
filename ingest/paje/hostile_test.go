package paje

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTrace writes data to a file in a temporary directory.
func writeTrace(t testing.TB, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "trace.paje")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// minimalDefs declares a container type, a state type and the events
// the hostile inputs below use.
const minimalDefs = `%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 2
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajePushState 3
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajePopState 4
% Time date
% Type string
% Container string
%EndEventDef
0 CT 0 "Thread"
1 ST CT "State"
2 0 p1 CT 0 "p1"
`

// TestWhitespaceLinesWithCR reads lines of only blanks, tabs and carriage
// returns between events (issue 18: a line " \r\t" made the reader index
// an empty value list and panic).
func TestWhitespaceLinesWithCR(t *testing.T) {
	for _, blank := range []string{" \r\t\n", "\r\n", "\t\r\r \n", "\r"} {
		p := writeTrace(t, minimalDefs+blank+"3 1.5 ST p1 run\n"+blank+"4 2 ST p1\n")
		if ok, err := Detect(p); !ok || err != nil {
			t.Errorf("%q: Detect = %v, %v", blank, ok, err)
		}
		src, err := Open(p, Options{})
		if err != nil {
			t.Fatalf("%q: Open: %v", blank, err)
		}
		n := 0
		for {
			if _, err := src.Next(); err != nil {
				break
			}
			n++
		}
		src.Close()
		if n != 5 {
			t.Errorf("%q: %d events, want 5", blank, n)
		}
	}
}

// TestBinaryInput opens binary files as Pajé (what --format paje does):
// a clear error, never a panic.
func TestBinaryInput(t *testing.T) {
	inputs := map[string]string{
		"trace.dat": "\x17\x08\x44tracing6\x00\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00header_page\x00",
		"nul":       strings.Repeat("\x00", 4096),
		"ctrl":      "\r\x00\r\n\x01\x02 \r\t\x03\n\xff\xfe\r",
		"defs+bin":  minimalDefs + "\x00\x01\r\x02\n \r\t\n\x89PNG\r\n\x1a\n",
	}
	for name, data := range inputs {
		p := writeTrace(t, data)
		src, err := Open(p, Options{})
		if err != nil {
			if strings.Contains(err.Error(), "\x00") {
				t.Errorf("%s: error prints raw bytes: %q", name, err)
			}
			continue
		}
		for {
			if _, err := src.Next(); err != nil {
				break
			}
		}
		src.Close()
	}
}
