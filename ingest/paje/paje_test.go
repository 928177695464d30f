package paje_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/paje"
	pajestates "github.com/tracetui/tracetui/ingest/states/paje"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

const sampleDir = "../../testdata/paje"

var samples = []string{"pajeng-nested.paje", "paje-1x-tabs.trace", "unknown-event.paje", "g5k-variables.paje"}

func TestSamplesGolden(t *testing.T) {
	for _, name := range samples {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(sampleDir, name)
			if ok, err := paje.Detect(path); !ok || err != nil {
				t.Errorf("Detect = %v, %v", ok, err)
			}
			src, err := paje.Open(path, paje.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			sourcetest.Golden(t, path+".dump", sourcetest.Dump(t, src))
		})
	}
}

func TestUnknownEventWarnsAndTheRestIsRead(t *testing.T) {
	src, err := paje.Open(filepath.Join(sampleDir, "unknown-event.paje"), paje.Options{})
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
		at("Threads/p1", 1_000_000_000, core.String("Busy")),
		at("Threads/p1", 3_500_000_000, core.String("Idle")),
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
	if ok, _ := paje.Detect(p); ok {
		t.Error("Detect(ftrace) = true")
	}
	if _, err := paje.Open(p, paje.Options{}); err == nil {
		t.Error("Open(not paje) succeeded")
	}
}

// analyze runs the Pajé analysis over src into a MemHistory.
func analyze(t testing.TB, src *paje.Source) *core.MemHistory {
	t.Helper()
	return sourcetest.Analyze(t, src, func(s core.StateSink) sourcetest.Analysis { return pajestates.NewAnalysis(s) })
}

var (
	checkStates = sourcetest.CheckStates
	at          = sourcetest.At
)

type stateAt = sourcetest.StateAt

func TestAnalysisNested(t *testing.T) {
	src, err := paje.Open(filepath.Join(sampleDir, "pajeng-nested.paje"), paje.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h := analyze(t, src)
	s := core.String
	const ms = 1_000_000
	checkStates(t, h, []stateAt{
		at("Threads/t1", 50*ms, core.Null()),
		at("Threads/t1", 100*ms, s("Running")), // entity value alias "run"
		at("Threads/t1", 200*ms, s("MPI_Send")),
		at("Threads/t1", 250*ms, s("memcpy")),
		at("Threads/t1/CallStack/1", 250*ms, s("Running")),
		at("Threads/t1/CallStack/2", 250*ms, s("MPI_Send")),
		at("Threads/t1/CallStack/3", 250*ms, s("memcpy")),
		at("Threads/t1/CallStack/3", 300*ms, core.Null()),
		at("Threads/t1", 300*ms, s("MPI_Send")),
		at("Threads/t1", 400*ms, s("Running")),
		at("Threads/t1", 700*ms, core.Null()), // ResetState
		at("Threads/t1/States/Mode", 300*ms, s("kernel")),
		at("Threads/t1/States/Mode", 1000*ms-1, s("kernel")),
		at("Threads/t1/Exec_name", 100*ms, s("rank 0")),
		at("Threads/t1/PID", 100*ms, core.Int32(1)),
		at("Threads/t2/PID", 100*ms, core.Int32(2)),
		at("Processes/1/Exec_name", 100*ms, s("node-1")),
		at("Processes/2/Exec_name", 100*ms, s("node-2")),
		at("Threads/t2", 450*ms, s("Waiting for data")),
		at("Threads/t2", 900*ms-1, s("Running")),
		at("Threads/t2", 900*ms, core.Null()), // destroyed
		at("Threads/n1/Variables/Memory used", 100*ms, core.Float64(1024)),
		at("Threads/n1/Variables/Memory used", 500*ms, core.Float64(1536.5)),
		at("Threads/n1/Variables/Memory used", 600*ms, core.Float64(536.5)),
		// The link m1 (pj_dump: Link, node-1, Communication, 0.25, 0.45,
		// ..., msg, rank 0, rank 1, m1), shown like a Chrome flow.
		at("Threads/t1/Flow_out", 250*ms-1, core.Null()),
		at("Threads/t1/Flow_out", 250*ms, s("Communication/msg#m1")),
		at("Threads/t1/Flow_out", 450*ms-1, s("Communication/msg#m1")),
		at("Threads/t1/Flow_out", 450*ms, core.Null()),
		at("Threads/t2/Flow_in", 450*ms-1, core.Null()),
		at("Threads/t2/Flow_in", 450*ms, s("Communication/msg#m1 from t1 at 250000000")),
		at("Threads/t2/Flow_in", 800*ms-1, s("Communication/msg#m1 from t1 at 250000000")),
		at("Threads/t2/Flow_in", 800*ms, core.Null()), // its next state
	})
}

func TestSeekProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for _, name := range samples {
		path := filepath.Join(sampleDir, name)
		sourcetest.SeekProperty(t, rng, func() (core.Source, error) { return paje.Open(path, paje.Options{}) }, 1<<20)
		src, err := paje.Open(path, paje.Options{})
		if err != nil {
			t.Fatal(err)
		}
		bad := src.Checkpoint(nil)
		bad[3] ^= 1
		if err := src.Seek(bad); !errors.Is(err, paje.ErrBadCheckpoint) {
			t.Errorf("Seek(damaged) = %v", err)
		}
		src.Close()
	}
}

// TestAgainstPjDump compares the states and variables with PajeNG's
// pj_dump (Debian package pajeng) on our samples and on the example traces
// PajeNG ships, when installed.
func TestAgainstPjDump(t *testing.T) {
	pjdump := coretest.NeedCommand(t, "pj_dump", "pajeng")
	files := []string{filepath.Join(sampleDir, "pajeng-nested.paje"), filepath.Join(sampleDir, "g5k-variables.paje")}
	ex, _ := filepath.Glob("/usr/share/doc/pajeng/examples/traces/*.trace")
	files = append(files, ex...)
	compared := 0
	for _, path := range files {
		out, err := exec.Command(pjdump, path).Output()
		if err != nil {
			t.Logf("%s: pj_dump refuses it (%v), skipped", filepath.Base(path), err)
			continue
		}
		src, err := paje.Open(path, paje.Options{})
		if err != nil {
			t.Errorf("%s: pj_dump reads it, paje.Open fails: %v", path, err)
			continue
		}
		h := analyze(t, src)
		src.Close()
		want, skip := pjStates(string(out), h)
		got := ourStates(h, skip)
		if !slices.Equal(got, want) {
			t.Errorf("%s: states differ from pj_dump\n%s", filepath.Base(path), diff(got, want))
		}
		containers, links, events := pjOthers(t, filepath.Base(path), string(out), h, path)
		if len(want)+containers+links+events == 0 {
			// pj_dump lists containers only (containers.trace): none has
			// activity, so, by design, none has a row.
			if !strings.Contains(string(out), "Container, ") || len(h.Attributes().Glob(core.AttrThreads+"/*")) != 0 {
				t.Errorf("%s: nothing compared with pj_dump", filepath.Base(path))
			}
		}
		compared++
		t.Logf("%s: %d states and variables, %d containers, %d links, %d events equal pj_dump's", filepath.Base(path), len(got), containers, links, events)
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

// A SimGrid platform trace with only variables (as PajeNG's g5k.trace):
// every host and link is a row whose variables are float64 attributes,
// so the browser has something to draw although no state is ever set.
func TestVariablesOnlyTraceHasRows(t *testing.T) {
	src, err := paje.Open(filepath.Join(sampleDir, "g5k-variables.paje"), paje.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	h := analyze(t, src)
	tree := h.Attributes()
	vars := tree.Glob("Threads/*/Variables/*")
	if len(vars) != 6 {
		t.Fatalf("%d variable attributes, want 6 (power and power_used of 2 hosts, bandwidth and bandwidth_used of 1 link)", len(vars))
	}
	rows := map[string]bool{}
	for _, k := range vars {
		rows[execName(h, tree.Parent(tree.Parent(k)))] = true
	}
	for _, want := range []string{"griffon-1.nancy.grid5000.fr", "griffon-2.nancy.grid5000.fr", "griffon-1_link"} {
		if !rows[want] {
			t.Errorf("no row with variables for %s (rows: %v)", want, rows)
		}
	}
	sourcetest.CheckStates(t, h, []sourcetest.StateAt{
		sourcetest.At("Threads/h1/Variables/power_used", 2_600_000_000, core.Float64(71521750)),
		sourcetest.At("Threads/h2/Variables/power_used", 4_000_000_000, core.Null()), // destroyed
	})
}
