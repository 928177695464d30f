package ctf_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/internal/bttest"
)

// conformanceCase is one line of testdata/ctf/MANIFEST.
type conformanceCase struct {
	name, kind, btStatus, about string
}

func readManifest(t *testing.T) (string, []conformanceCase) {
	t.Helper()
	root := filepath.Join(coretest.ModuleRoot(), "testdata", "ctf")
	f, err := os.Open(filepath.Join(root, "MANIFEST"))
	if err != nil {
		t.Fatalf("conformance manifest: %v (regenerate with go test ./ingest/ctf -run TestConformanceGenerate -update)", err)
	}
	defer f.Close()
	var cs []conformanceCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p := strings.SplitN(l, "\t", 4)
		if len(p) != 4 {
			t.Fatalf("MANIFEST: bad line %q", l)
		}
		cs = append(cs, conformanceCase{p[0], p[1], p[2], p[3]})
	}
	return root, cs
}

// dump reads a trace as `tracetui dump` does: its output, and the
// warnings with stream paths made relative to the trace ($TRACE/...).
func dump(dir string) (out string, warnings []string, err error) {
	r, err := ctf.Open(dir)
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	var buf bytes.Buffer
	err = ingest.Dump(&buf, r, 0)
	abs, _ := filepath.Abs(dir)
	for _, w := range r.Warnings() {
		warnings = append(warnings, strings.ReplaceAll(w.Message, abs+"/", "$TRACE/"))
	}
	return buf.String(), warnings, err
}

// TestConformance reads every conformance trace: the valid ones must
// print what babeltrace2 printed (NAME.golden) with the same warnings, the
// invalid ones must fail with a one-line error that says why, the reason
// pinned per case in refusals.
func TestConformance(t *testing.T) {
	root, cases := readManifest(t)
	invalid := map[string]bool{}
	for _, c := range cases {
		if c.kind == "invalid" {
			invalid[c.name] = true
		}
	}
	for name := range refusals {
		if !invalid[name] {
			t.Errorf("refusals: %q is not an invalid case of the MANIFEST", name)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(root, c.name)
			got, warnings, err := dump(dir)
			switch c.kind {
			case "valid":
				if err != nil {
					t.Fatalf("%s: %v", c.about, err)
				}
				want, err := os.ReadFile(filepath.Join(root, c.name+".golden"))
				if err != nil {
					t.Fatal(err)
				}
				bttest.Compare(t, string(want), got)
				wantWarn, err := os.ReadFile(filepath.Join(root, c.name+".warnings"))
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				if g, w := strings.Join(warnings, "\n"), strings.TrimSuffix(string(wantWarn), "\n"); g != w {
					t.Errorf("warnings differ:\nbabeltrace2:\n%s\ntracetui:\n%s", w, g)
				}
			case "invalid":
				if err == nil {
					t.Fatalf("%s: accepted (babeltrace2 exit status %s)", c.about, c.btStatus)
				}
				msg := err.Error()
				if strings.Contains(msg, "\n") || msg == "" {
					t.Errorf("error is not one line: %q", msg)
				}
				why, ok := refusals[c.name]
				if !ok {
					t.Fatalf("%s: no pinned reason in refusals (conformance_reasons_test.go); refused with: %v", c.about, err)
				}
				if !strings.Contains(msg, filepath.Base(dir)+"/"+why) {
					t.Errorf("%s: refused for another reason:\n got: %s\nwant: .../%s/%s", c.about, msg, filepath.Base(dir), why)
				}
			default:
				t.Fatalf("MANIFEST: unknown kind %q", c.kind)
			}
		})
	}
}
