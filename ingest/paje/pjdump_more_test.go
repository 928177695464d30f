package paje_test

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/paje"
)

// pjOthers compares pj_dump's Container, Link and Event lines with ours,
// and returns how many lines of each kind it compared; the State and
// Variable lines are pjStates'.
//
//   - Container: every container with a row (one with a state, a variable
//     or a link) has that row named as it, in the process named as its
//     parent. Containers without activity have no row, by design.
//   - Link: the end container's row shows "type/value#key from <row of the
//     start container> at <start>" from the link's end.
//   - Event: the trace's PajeNewEvent events, their aliases resolved as
//     pj_dump resolves them, are pj_dump's Event lines.
//
// Mutation caught (tried by hand): an analysis that shows no link's
// arrival fails 6 of PajeNG's samples; State and Variable lines alone
// did not see it.
func pjOthers(t *testing.T, name, out string, h *core.MemHistory, path string) (containers, links, events int) {
	t.Helper()
	tree := h.Attributes()
	var wantC, wantL, wantE []string
	active := map[string]bool{}
	parent := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Split(l, ", ")
		switch {
		case len(f) >= 7 && f[0] == "Container":
			parent[strings.Join(f[6:], ", ")] = f[1]
		case len(f) >= 7 && (f[0] == "State" || f[0] == "Variable"):
			active[f[1]] = true
		case len(f) >= 9 && f[0] == "Link":
			active[f[7]], active[f[8]] = true, true
			wantL = append(wantL, strings.Join([]string{f[8], f[2] + "/" + f[6], f[7], f[3], f[4]}, "|"))
		case len(f) >= 5 && f[0] == "Event":
			wantE = append(wantE, strings.Join([]string{f[1], f[2], f[3], strings.Join(f[4:], ", ")}, "|"))
		}
	}
	for c := range active {
		p := parent[c]
		if p == "0" { // pj_dump's name of the root container
			p = "(root)"
		}
		wantC = append(wantC, c+"|"+p)
	}
	// Ours: rows with their process, and the links' arrivals.
	var gotC, gotL []string
	rowName := map[string]string{}
	for _, row := range tree.Glob(core.AttrThreads + "/*") {
		rowName[tree.Name(row)] = execName(h, row)
	}
	procName := map[string]string{}
	for _, iv := range h.Intervals() {
		p := tree.Path(iv.Key)
		if strings.HasPrefix(p, core.AttrProcesses+"/") && strings.HasSuffix(p, "/"+core.AttrExecName) && !iv.Value.IsNull() {
			procName[strings.Split(p, "/")[1]] = iv.Value.Str()
		}
	}
	secs := func(ns int64) string { return fmt.Sprintf("%.6f", float64(ns)/1e9) }
	for _, iv := range h.Intervals() {
		p := strings.Split(tree.Path(iv.Key), "/")
		if len(p) != 3 || p[0] != core.AttrThreads || iv.Value.IsNull() {
			continue
		}
		switch p[2] {
		case core.AttrPID:
			gotC = append(gotC, rowName[p[1]]+"|"+procName[iv.Value.String()])
		case core.AttrFlowIn:
			// "type/value#key from <row> at <ns>"
			var label, from string
			var at int64
			v := iv.Value.Str()
			i, j := strings.LastIndex(v, " from "), strings.LastIndex(v, " at ")
			if i < 0 || j < i {
				t.Errorf("%s: Flow_in %q", name, v)
				continue
			}
			label, from = v[:i], v[i+len(" from "):j]
			fmt.Sscan(v[j+len(" at "):], &at)
			label = label[:strings.LastIndexByte(label, '#')]
			gotL = append(gotL, strings.Join([]string{rowName[p[1]], label, rowName[from], secs(at), secs(int64(iv.Start))}, "|"))
		}
	}
	// A row shows one link arriving at an instant (Flow_in holds one
	// value): of the links pj_dump ends on one container at one instant
	// (g5k's platform links, all at 0), ours must show exactly one.
	wantL = oneArrivalEach(wantL, gotL)
	gotE := ourEvents(t, path)
	for _, c := range []struct {
		what      string
		got, want []string
	}{{"containers", gotC, wantC}, {"links", gotL, wantL}, {"events", gotE, wantE}} {
		slices.Sort(c.got)
		slices.Sort(c.want)
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %s differ from pj_dump\n%s", name, c.what, diff(c.got, c.want))
		}
	}
	return len(wantC), len(wantL), len(wantE)
}

// ourEvents lists the trace's PajeNewEvent events as pj_dump prints
// them, "container|type|time|value", resolving the aliases of containers,
// types and entity values from the definitions read before them.
func ourEvents(t *testing.T, path string) []string {
	t.Helper()
	src, err := paje.Open(path, paje.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	names := map[string]string{} // alias -> name, of containers, types and values
	field := func(ev *core.Event, name string) string {
		return string(ev.Field(ev.Class.FieldIndex(name)).AppendText(nil))
	}
	resolve := func(s string) string {
		if n, ok := names[s]; ok {
			return n
		}
		return s
	}
	var out []string
	for {
		ev, err := src.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		switch paje.KindOf(ev.Class.Name) {
		case paje.EvDefineContainerType, paje.EvDefineStateType, paje.EvDefineVariableType, paje.EvDefineEventType,
			paje.EvDefineLinkType, paje.EvDefineEntityValue, paje.EvCreateContainer:
			if a := field(ev, "Alias"); a != "" {
				names[a] = field(ev, "Name")
			}
		case paje.EvNewEvent:
			out = append(out, strings.Join([]string{resolve(field(ev, "Container")), resolve(field(ev, "Type")),
				fmt.Sprintf("%.6f", float64(ev.Time)/1e9), resolve(field(ev, "Value"))}, "|"))
		}
	}
}

// oneArrivalEach replaces each group of want's links that end on the same
// container at the same instant by the one of them that got shows (or the
// group's first, when got shows none, so that the difference is
// reported).
func oneArrivalEach(want, got []string) []string {
	arrival := func(l string) string { // end container and end time
		f := strings.Split(l, "|")
		return f[0] + "|" + f[4]
	}
	shown := map[string]bool{}
	for _, g := range got {
		shown[g] = true
	}
	groups := map[string][]string{}
	var order []string
	for _, w := range want {
		a := arrival(w)
		if groups[a] == nil {
			order = append(order, a)
		}
		groups[a] = append(groups[a], w)
	}
	var out []string
	for _, a := range order {
		pick := groups[a][0]
		for _, w := range groups[a] {
			if shown[w] {
				pick = w
				break
			}
		}
		out = append(out, pick)
	}
	return out
}
