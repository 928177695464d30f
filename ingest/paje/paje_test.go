package paje

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest"
)

var _ ingest.Analysis = (*Analysis)(nil)

var update = flag.Bool("update", false, "rewrite the golden files")

const sampleDir = "../../testdata/paje"

var samples = []string{"pajeng-nested.paje", "paje-1x-tabs.trace", "unknown-event.paje"}

func dumpSource(t testing.TB, src core.Source) string {
	t.Helper()
	var out []byte
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, '[')
		out = core.AppendTimestamp(out, ev.Time)
		out = append(out, "] "...)
		out = append(out, ev.Class.Name...)
		out = append(out, ": "...)
		out = src.AppendContents(out, ev)
		out = append(out, "\n   "...)
		for i := 0; i < numContext; i++ {
			if f := ev.Fields[i]; f.Kind != core.FieldNone {
				out = append(out, ' ')
				out = append(out, ev.Class.Fields[i]...)
				out = append(out, '=')
				out = f.AppendText(out)
			}
		}
		out = append(out, '\n')
	}
	for _, w := range src.Warnings() {
		out = fmt.Appendf(out, "warning %s (count %d): %s\n", w.Kind, w.Count, w.Message)
	}
	return string(out)
}

func TestSamplesGolden(t *testing.T) {
	for _, name := range samples {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(sampleDir, name)
			if ok, err := Detect(path); !ok || err != nil {
				t.Errorf("Detect = %v, %v", ok, err)
			}
			src, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			got := dumpSource(t, src)
			golden := path + ".dump"
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update creates it)", err)
			}
			if string(want) != got {
				t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

func TestUnknownEventWarnsAndTheRestIsRead(t *testing.T) {
	src, err := Open(filepath.Join(sampleDir, "unknown-event.paje"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	kinds := map[string]int64{}
	for _, w := range src.Warnings() {
		kinds[w.Kind] += max(w.Count, 1)
	}
	want := map[string]int64{"unknown-definition": 1, "skipped-events": 2, "skipped-line": 4}
	if !maps(kinds, want) {
		t.Errorf("warnings = %v, want %v:\n%+v", kinds, want, src.Warnings())
	}
	h := analyze(t, src)
	checkStates(t, h, []stateAt{
		{"Threads/p1", 1_000_000_000, core.String("Busy")},
		{"Threads/p1", 3_500_000_000, core.String("Idle")},
	})
}

func maps(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestNotPaje(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x")
	os.WriteFile(p, []byte("# tracer: nop\n"), 0o644)
	if ok, _ := Detect(p); ok {
		t.Error("Detect(ftrace) = true")
	}
	if _, err := Open(p, Options{}); err == nil {
		t.Error("Open(not paje) succeeded")
	}
}

// analyze runs the analysis over src from its current position into a
// MemHistory spanning the trace and checks the tiling.
func analyze(t testing.TB, src *Source) *core.MemHistory {
	t.Helper()
	info := src.Info()
	h := core.NewMemHistory(info.Start)
	a := NewAnalysis(h)
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Handle(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Finish(info.End); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(info.End); err != nil {
		t.Fatal(err)
	}
	for _, w := range a.Warnings() {
		if w.Kind == "state" {
			t.Errorf("sink refused a change: %s", w.Message)
		}
	}
	coretest.CheckTiling(t, h.Intervals(), h.Attributes().Len(), info.Start, info.End)
	return h
}

type stateAt struct {
	path string
	t    core.Time
	v    core.Value
}

func checkStates(t *testing.T, h *core.MemHistory, want []stateAt) {
	t.Helper()
	for _, w := range want {
		k, ok := h.Attributes().Lookup(w.path)
		if !ok {
			t.Errorf("%s: no such attribute", w.path)
			continue
		}
		iv, _, err := h.Single(context.Background(), k, w.t)
		if err != nil || iv.Value != w.v {
			t.Errorf("%s at %d = %v (%v), want %v", w.path, w.t, iv.Value, err, w.v)
		}
	}
}

func TestAnalysisNested(t *testing.T) {
	src, err := Open(filepath.Join(sampleDir, "pajeng-nested.paje"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h := analyze(t, src)
	s := core.String
	const ms = 1_000_000
	checkStates(t, h, []stateAt{
		{"Threads/t1", 50 * ms, core.Null()},
		{"Threads/t1", 100 * ms, s("Running")}, // entity value alias "run"
		{"Threads/t1", 200 * ms, s("MPI_Send")},
		{"Threads/t1", 250 * ms, s("memcpy")},
		{"Threads/t1/CallStack/1", 250 * ms, s("Running")},
		{"Threads/t1/CallStack/2", 250 * ms, s("MPI_Send")},
		{"Threads/t1/CallStack/3", 250 * ms, s("memcpy")},
		{"Threads/t1/CallStack/3", 300 * ms, core.Null()},
		{"Threads/t1", 300 * ms, s("MPI_Send")},
		{"Threads/t1", 400 * ms, s("Running")},
		{"Threads/t1", 700 * ms, core.Null()}, // ResetState
		{"Threads/t1/States/Mode", 300 * ms, s("kernel")},
		{"Threads/t1/States/Mode", 1000*ms - 1, s("kernel")},
		{"Threads/t1/Exec_name", 100 * ms, s("rank 0")},
		{"Threads/t1/PID", 100 * ms, core.Int32(1)},
		{"Threads/t2/PID", 100 * ms, core.Int32(2)},
		{"Processes/1/Exec_name", 100 * ms, s("node-1")},
		{"Processes/2/Exec_name", 100 * ms, s("node-2")},
		{"Threads/t2", 450 * ms, s("Waiting for data")},
		{"Threads/t2", 900*ms - 1, s("Running")},
		{"Threads/t2", 900 * ms, core.Null()}, // destroyed
		{"Threads/n1/Variables/Memory used", 100 * ms, core.Float64(1024)},
		{"Threads/n1/Variables/Memory used", 500 * ms, core.Float64(1536.5)},
		{"Threads/n1/Variables/Memory used", 600 * ms, core.Float64(536.5)},
	})
}

func TestSeekProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for _, name := range samples {
		path := filepath.Join(sampleDir, name)
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		var cps [][]byte
		var at []int
		for {
			if rng.IntN(3) == 0 {
				cps, at = append(cps, src.Checkpoint(nil)), append(at, len(lines))
			}
			ev, err := src.Next()
			if err != nil {
				break
			}
			lines = append(lines, core.FormatTimestamp(ev.Time)+ev.Class.Name+string(src.AppendContents(nil, ev)))
		}
		other, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range rng.Perm(len(cps)) {
			if err := other.Seek(cps[k]); err != nil {
				t.Fatal(err)
			}
			for j := at[k]; j < len(lines); j++ {
				ev, err := other.Next()
				if err != nil {
					t.Fatalf("%s: after Seek to %d: %v", name, at[k], err)
				}
				if got := core.FormatTimestamp(ev.Time) + ev.Class.Name + string(other.AppendContents(nil, ev)); got != lines[j] {
					t.Fatalf("%s: after Seek to %d, event %d = %s, want %s", name, at[k], j, got, lines[j])
				}
			}
		}
		bad := src.Checkpoint(nil)
		bad[3] ^= 1
		if err := other.Seek(bad); !errors.Is(err, ErrBadCheckpoint) {
			t.Errorf("Seek(damaged) = %v", err)
		}
		src.Close()
		other.Close()
	}
}

// TestAgainstPjDump compares the states and variables with PajeNG's
// pj_dump (Debian package pajeng) on our samples and on the example traces
// PajeNG ships, when installed.
func TestAgainstPjDump(t *testing.T) {
	pjdump := coretest.NeedCommand(t, "pj_dump", "pajeng")
	files := []string{filepath.Join(sampleDir, "pajeng-nested.paje")}
	ex, _ := filepath.Glob("/usr/share/doc/pajeng/examples/traces/*.trace")
	files = append(files, ex...)
	compared := 0
	for _, path := range files {
		out, err := exec.Command(pjdump, path).Output()
		if err != nil {
			t.Logf("%s: pj_dump refuses it (%v), skipped", filepath.Base(path), err)
			continue
		}
		src, err := Open(path, Options{})
		if err != nil {
			t.Errorf("%s: pj_dump reads it, Open fails: %v", path, err)
			continue
		}
		h := analyze(t, src)
		src.Close()
		want, skip := pjStates(string(out), h)
		got := ourStates(h, skip)
		if !slices.Equal(got, want) {
			t.Errorf("%s: states differ from pj_dump\n%s", filepath.Base(path), diff(got, want))
		}
		compared++
		t.Logf("%s: %d states and variables equal pj_dump's", filepath.Base(path), len(got))
	}
	if compared == 0 {
		t.Fatal("no trace compared")
	}
}

// pjStates extracts pj_dump's State and Variable lines as
// "container|what|start|end|value", mapping each state type either to the
// container's CallStack depth (its primary type) or to States/<type>.
// States/<type> holds only the top of a secondary type's stack, so those
// with nested states are left out of the comparison (returned in skip).
// Variables compare to six significant digits: PajeNG keeps them in less
// precision than float64.
func pjStates(out string, h *core.MemHistory) ([]string, map[string]bool) {
	tree := h.Attributes()
	var res []string
	skip := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Split(l, ", ")
		switch {
		case len(f) >= 8 && f[0] == "State":
			what := "CallStack/" + fmt.Sprint(atoiF(f[6])+1)
			for _, k := range tree.Glob("Threads/*/States/" + f[2]) {
				if execName(h, tree.Parent(tree.Parent(k))) == f[1] {
					what = "States/" + f[2]
					if atoiF(f[6]) > 0 {
						skip[f[1]+"|"+what] = true
					}
				}
			}
			res = append(res, strings.Join([]string{f[1], what, f[3], f[4], strings.Join(f[7:], ", ")}, "|"))
		case len(f) >= 7 && f[0] == "Variable":
			res = append(res, strings.Join([]string{f[1], "Variables/" + f[2], f[3], f[4], sixDigits(f[6])}, "|"))
		}
	}
	return mergeAdjacent(res, skip), skip
}

// mergeAdjacent drops zero-length intervals and merges intervals of one
// attribute that touch and hold the same value: pj_dump prints one state
// per SetState even when the value does not change, a history stores one.
func mergeAdjacent(res []string, skip map[string]bool) []string {
	slices.SortFunc(res, func(a, b string) int {
		fa, fb := strings.Split(a, "|"), strings.Split(b, "|")
		if c := strings.Compare(fa[0]+"|"+fa[1], fb[0]+"|"+fb[1]); c != 0 {
			return c
		}
		var x, y float64
		fmt.Sscanf(fa[2], "%f", &x)
		fmt.Sscanf(fb[2], "%f", &y)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	var out []string
	for _, r := range res {
		f := strings.Split(r, "|")
		if f[2] == f[3] || skip[f[0]+"|"+f[1]] {
			continue
		}
		if n := len(out); n > 0 {
			p := strings.Split(out[n-1], "|")
			if p[0] == f[0] && p[1] == f[1] && p[4] == f[4] && p[3] == f[2] {
				p[3] = f[3]
				out[n-1] = strings.Join(p, "|")
				continue
			}
		}
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

func atoiF(s string) int {
	var v float64
	fmt.Sscanf(s, "%f", &v)
	return int(v)
}

func sixDigits(s string) string {
	var v float64
	fmt.Sscanf(s, "%f", &v)
	if v > -1e-6 && v < 1e-6 {
		v = 0
	}
	return fmt.Sprintf("%.6g", v)
}

// execName returns the Exec_name of a row (the container's name), from a
// map built once per history.
func execName(h *core.MemHistory, row core.Key) string {
	names, ok := execNames[h]
	if !ok {
		names = map[core.Key]string{}
		tree := h.Attributes()
		for _, iv := range h.Intervals() {
			if !iv.Value.IsNull() && tree.Name(iv.Key) == core.AttrExecName {
				names[tree.Parent(iv.Key)] = iv.Value.Str()
			}
		}
		execNames[h] = names
	}
	return names[row]
}

var execNames = map[*core.MemHistory]map[core.Key]string{}

func ourStates(h *core.MemHistory, skip map[string]bool) []string {
	tree := h.Attributes()
	var res []string
	secs := func(t core.Time) string { return fmt.Sprintf("%.6f", float64(t)/1e9) }
	for _, iv := range h.Intervals() {
		if iv.Value.IsNull() {
			continue
		}
		p := tree.Path(iv.Key)
		parts := strings.SplitN(p, "/", 3)
		if len(parts) < 3 || parts[0] != "Threads" {
			continue
		}
		what := parts[2]
		if !strings.HasPrefix(what, "CallStack/") && !strings.HasPrefix(what, "States/") && !strings.HasPrefix(what, "Variables/") {
			continue
		}
		row, _ := tree.Lookup("Threads/" + parts[1])
		v := iv.Value.String()
		if iv.Value.Kind() == core.KindFloat64 {
			v = sixDigits(fmt.Sprintf("%f", iv.Value.Float()))
		}
		res = append(res, strings.Join([]string{execName(h, row), what, secs(iv.Start), secs(iv.End + 1), v}, "|"))
	}
	return mergeAdjacent(res, skip)
}

func diff(got, want []string) string {
	var b strings.Builder
	for _, g := range got {
		if !slices.Contains(want, g) {
			fmt.Fprintf(&b, "  only ours:    %s\n", g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			fmt.Fprintf(&b, "  only pj_dump: %s\n", w)
		}
	}
	return b.String()
}
