package keymap

import (
	"sort"

	"github.com/charmbracelet/bubbles/key"
)

// Keys by focus. One binding means different things in different parts
// of the browser (w is "zoom in" on the Gantt and "finer p" on an
// overview), so the help screen and the one-line hint list, for each
// part that takes the keys, what its keys do there. The lists point at
// the KeyMap's bindings, so an override in keys.json shows everywhere.

// Focus names, in the order the help lists them.
const (
	FocusMain     = "Main screen (Gantt or table)"
	FocusGantt    = "Gantt"
	FocusTable    = "Event table"
	FocusMarks    = "Marks and copying"
	FocusStats    = "Statistics"
	FocusOverview = "Overviews"
	FocusDetails  = "Details"
	FocusCritPath = "Critical path"
	FocusCallTree = "Call tree"
	FocusCompare  = "Comparison"
	// FocusSideBySide is the two traces' Control Flow, one above the other.
	FocusSideBySide = "Side by side"
	FocusHelp       = "This help"
)

// Focus is a part of the browser that takes keys: the main screen with
// its Gantt or event table focused, or a view opened above it.
type Focus struct {
	Name string
	// Intro says in one line what the part is and how it opens.
	Intro string
	// Base is the focus whose keys also act here ("" for none): the
	// Gantt's and the table's keys come on top of the main screen's.
	Base string
	Uses []Use
}

// Use is what one key does in one focus.
type Use struct {
	// Binding is the key (nil for a fixed key such as esc, named by Key).
	Binding *key.Binding
	Key     string
	// Desc is what the key does here ("" keeps the binding's own help).
	Desc string
	// Hint is the use's place in the focus's one-line hint (0: not in
	// it); uses with the same place are one item of the hint.
	Hint int
	// Short is the hint's words when they differ from Desc (the first use
	// of a shared place says it for all: "rows").
	Short string
}

// Keys is the key as the help prints it.
func (u Use) Keys() string {
	if u.Binding == nil {
		return u.Key
	}
	return u.Binding.Help().Key
}

// Description is what the key does in its focus.
func (u Use) Description() string {
	if u.Desc != "" || u.Binding == nil {
		return u.Desc
	}
	return u.Binding.Help().Desc
}

// HintText is the use's words in the one-line hint.
func (u Use) HintText() string {
	if u.Short != "" {
		return u.Short
	}
	return u.Description()
}

// enabled is false for a binding the user unbound in keys.json.
func (u Use) enabled() bool { return u.Binding == nil || u.Binding.Enabled() }

// use is b with its own help; fixed is a key that is not a binding.
func use(b *key.Binding) Use       { return Use{Binding: b} }
func fixed(k, desc string) Use     { return Use{Key: k, Desc: desc} }
func (u Use) does(desc string) Use { u.Desc = desc; return u }
func (u Use) hint(place int) Use   { u.Hint = place; return u }
func (u Use) hintAs(place int, short string) Use {
	u.Hint, u.Short = place, short
	return u
}

// Focuses lists every focus with its keys, in help order.
func (k *KeyMap) Focuses() []Focus {
	esc := fixed("esc", "close")
	return []Focus{
		{Name: FocusMain, Intro: "keys that act whichever has the focus", Uses: []Use{
			use(&k.PanLeft).hint(50), use(&k.PanRight).hint(60),
			use(&k.ZoomIn).does("zoom in").hint(30), use(&k.ZoomOut).does("zoom out").hint(40),
			use(&k.ZoomSelection).does("zoom to the selection (and clear it)"), use(&k.ZoomAll),
			use(&k.PrevChange), use(&k.NextChange),
			use(&k.Select), use(&k.GoTo).hint(120), use(&k.GoToEvent), use(&k.AbsTimes),
			use(&k.ControlFlow), use(&k.Resources),
			use(&k.FollowWaker), use(&k.WakerBack), use(&k.FlowJump),
			use(&k.Focus).does("focus the table / the Gantt").hintAs(100, "table/Gantt"),
			use(&k.Filter).hint(110), use(&k.ToggleTable), use(&k.GrowTable), use(&k.ShrinkTable),
			use(&k.Details), use(&k.Stats).hint(90),
			use(&k.Overview).hint(80), use(&k.OverviewST),
			use(&k.CallTree), use(&k.CriticalPath), use(&k.Compare),
			use(&k.MarkThread).does("mark the thread or process over the selection as A, then B"),
			use(&k.SideBySide),
			use(&k.Legend).hint(140), use(&k.Help).hint(10), use(&k.Quit).hint(20),
		}},
		{Name: FocusGantt, Intro: "the rows of threads or CPUs and their states over time", Base: FocusMain, Uses: []Use{
			use(&k.Up), use(&k.Down), use(&k.PageUp), use(&k.PageDown), use(&k.Top), use(&k.Bottom),
			use(&k.Left).does("cursor a column left"), use(&k.Right).does("cursor a column right"),
			use(&k.Toggle).does("expand/collapse the process").hintAs(25, "expand"),
			use(&k.ExpandAll), use(&k.CollapseAll), use(&k.HideIdle), use(&k.ProcessTree),
			use(&k.Find).hint(130), use(&k.FindNext), use(&k.FindPrev),
			fixed("esc", "clear the selection"),
		}},
		{Name: FocusTable, Intro: "the events from the cursor on (tab gives it the focus)", Base: FocusMain, Uses: []Use{
			use(&k.Up).does("event up"), use(&k.Down).does("event down"),
			use(&k.PageUp), use(&k.PageDown),
			use(&k.Top).does("first event"), use(&k.Bottom).does("last event"),
			use(&k.Left).does("column left").hintAs(26, "column"), use(&k.Right).does("column right").hint(26),
			use(&k.Toggle).does("go to the event in the Gantt").hintAs(25, "go to event"),
			use(&k.ContentsLeft).does("scroll Contents left («: text cut)"),
			use(&k.ContentsRight).does("scroll Contents right (»: more)"),
			use(&k.Copy).does("copy the event as one line (OSC 52)"),
			use(&k.Find).does("search the focused column: matches highlighted, none hidden").hintAs(130, "search"),
			use(&k.FindNext).does("next match in the table"), use(&k.FindPrev).does("previous match in the table"),
			fixed("esc", "clear the selection"),
		}},
		{Name: FocusMarks, Intro: "named instants, as in vim; marks A and B measure a delta", Uses: []Use{
			use(&k.SetMark).does("then a letter: mark the cursor"),
			use(&k.JumpMark).does("then a letter: back to the mark; then ?: list the marks"),
			use(&k.Copy).does("copy the cursor time or selection (OSC 52)"),
		}},
		{Name: FocusStats, Intro: "per-state, per-row and system-call tables of the selection or view", Uses: []Use{
			use(&k.Focus).does("next table").hint(1),
			use(&k.SortNext).does("sort by the next column").hintAs(2, "sort"),
			use(&k.SortReverse).does("reverse the order").hintAs(3, "reverse"),
			use(&k.Up).does("line up").hintAs(4, "select"), use(&k.Down).does("line down").hint(4),
			use(&k.PageUp), use(&k.PageDown), use(&k.Top), use(&k.Bottom),
			fixed("enter", "show the slowest occurrence").hintAs(5, "slowest"),
			use(&k.Overview).does("temporal overview (closes the statistics)"),
			use(&k.OverviewST).does("spatiotemporal overview (closes them)"),
			use(&k.Stats).does("close").hint(6), esc.hint(6),
			use(&k.Help).hint(7),
		}},
		{Name: FocusOverview, Intro: "the rows aggregated into parts; p trades detail for readability", Uses: []Use{
			use(&k.ZoomIn).does("finer p (more parts)").hintAs(1, "finer p"),
			use(&k.ZoomOut).does("coarser p (fewer parts)").hintAs(2, "coarser p"),
			use(&k.Left).does("previous part").hintAs(3, "parts"), use(&k.Right).does("next part").hint(3),
			use(&k.Up).does("line up").hintAs(4, "rows"), use(&k.Down).does("line down").hint(4),
			use(&k.PageUp), use(&k.PageDown), use(&k.Top), use(&k.Bottom),
			use(&k.Toggle).does("zoom the Gantt to the part").hintAs(5, "zoom to part"),
			use(&k.Legend).hint(6),
			use(&k.Overview).does("temporal overview (or close it)"),
			use(&k.OverviewST).does("spatiotemporal overview (or close it)"),
			use(&k.Stats).does("statistics (closes the overview)"),
			esc.hint(7),
		}},
		{Name: FocusDetails, Intro: "the selected event's fields, the row's attributes at the cursor", Uses: []Use{
			use(&k.Down).does("scroll down").hintAs(1, "scroll"), use(&k.Up).does("scroll up").hint(1),
			use(&k.PageDown).hintAs(2, "page"), use(&k.PageUp).hint(2), use(&k.Top).does("top"),
			use(&k.Details).does("close").hint(3), esc.hint(3),
		}},
		{Name: FocusCritPath, Intro: "what the selected thread waited for: segments, time per thread and per state", Uses: []Use{
			use(&k.Up).does("line up").hintAs(1, "move"), use(&k.Down).does("line down").hint(1),
			use(&k.PageUp), use(&k.PageDown), use(&k.Top).does("first line"), use(&k.Bottom).does("last line"),
			use(&k.Focus).does("next table: segments, threads, states").hintAs(2, "tables"),
			use(&k.Toggle).does("segment: show it in Control Flow; thread or state: list its segments").hintAs(3, "go to/list"),
			use(&k.WakerBack).does("back from a segment shown in Control Flow (esc too)"),
			use(&k.Find).does("find a segment (regex)").hintAs(4, "find"), use(&k.FindNext), use(&k.FindPrev),
			use(&k.SortNext).does("sort the thread or state table").hintAs(5, "sort"), use(&k.SortReverse).does("reverse the order"),
			fixed("esc", "all segments again, else close").hint(6),
		}},
		{Name: FocusCallTree, Intro: "the call stacks summed over the range (flame graph)", Uses: []Use{
			use(&k.Up).does("call up").hintAs(1, "move"), use(&k.Down).does("call down").hint(1),
			use(&k.PageUp), use(&k.PageDown),
			use(&k.Right).does("expand").hint(2), use(&k.Left).does("collapse").hint(3),
			use(&k.Toggle).does("zoom to the longest call").hintAs(4, "longest call"),
			use(&k.Focus).does("from the comparison: the other side's tree (BASE or NEW)"),
			use(&k.CallTree).does("close").hint(5), esc.hint(5),
			use(&k.Help).hint(6),
		}},
		{Name: FocusCompare, Intro: "two selections, two marked threads, or BASE and NEW traces: what changed, largest first", Uses: []Use{
			use(&k.Focus).does("next table").hint(1),
			use(&k.SortNext).does("sort by change, new, base, ratio, name").hintAs(2, "sort"),
			use(&k.SortReverse).does("reverse the order").hintAs(3, "reverse"),
			use(&k.Up).does("line up").hintAs(4, "select"), use(&k.Down).does("line down").hint(4),
			use(&k.PageUp), use(&k.PageDown), use(&k.Top), use(&k.Bottom),
			fixed("enter", "go to the line's thread, or both call trees at its path").hintAs(5, "go to"),
			use(&k.Compare).does("close").hint(6), esc.hint(6),
			use(&k.Help).hint(7),
		}},
		{Name: FocusSideBySide, Intro: "BASE and NEW's Control Flow aligned at their starts, or at marks; time keys move both", Uses: []Use{
			use(&k.Left).does("cursor a column left (both)"), use(&k.Right).does("cursor a column right (both)"),
			use(&k.PanLeft).does("pan both left").hintAs(1, "pan"), use(&k.PanRight).does("pan both right").hint(1),
			use(&k.ZoomIn).does("zoom both in").hintAs(2, "zoom"), use(&k.ZoomOut).does("zoom both out").hint(2),
			use(&k.ZoomAll).does("both whole"),
			use(&k.ContentsLeft).does("NEW a column earlier (align two moments)"),
			use(&k.ContentsRight).does("NEW a column later"),
			use(&k.SetMark).does("then a letter: mark NEW at the cursor"),
			use(&k.AlignMarks).does("then a letter: NEW's mark under BASE's (set in the Gantt)").hintAs(7, "align at mark"),
			use(&k.Focus).does("the other trace's rows").hintAs(3, "other trace"),
			use(&k.Up).does("row up").hintAs(4, "rows"), use(&k.Down).does("row down").hint(4),
			use(&k.PageUp), use(&k.PageDown), use(&k.Top), use(&k.Bottom),
			use(&k.Toggle).does("expand/collapse the process").hintAs(5, "expand"),
			use(&k.SideBySide).does("close").hint(6), esc.hint(6),
		}},
		{Name: FocusHelp, Intro: "keys by focus, then what the screen's glyphs and words mean", Uses: []Use{
			use(&k.Down).does("scroll down").hintAs(1, "scroll"), use(&k.Up).does("scroll up").hint(1),
			use(&k.PageDown).hintAs(2, "page"), use(&k.PageUp).hint(2),
			use(&k.Top).does("top").hintAs(3, "top/end"), use(&k.Bottom).does("end").hint(3),
			use(&k.Help).does("close").hint(4), esc.hint(4),
		}},
	}
}

// FocusNamed returns the focus of that name (an empty one for an unknown name).
func (k *KeyMap) FocusNamed(name string) Focus {
	for _, f := range k.Focuses() {
		if f.Name == name {
			return f
		}
	}
	return Focus{Name: name}
}

// Hint is the focus's one-line hint: its uses and its base's that have a
// place in it, by place. Uses sharing a place are one item: their keys
// joined, the first one's words ("h/← l/→ parts").
func (k *KeyMap) Hint(name string) []Use {
	f := k.FocusNamed(name)
	uses := f.Uses
	if f.Base != "" {
		uses = append(append([]Use(nil), uses...), k.FocusNamed(f.Base).Uses...)
	}
	var hint []Use
	for _, u := range uses {
		if u.Hint > 0 && u.enabled() {
			hint = append(hint, u)
		}
	}
	sort.SliceStable(hint, func(i, j int) bool { return hint[i].Hint < hint[j].Hint })
	var out []Use
	for _, u := range hint {
		if n := len(out); n > 0 && out[n-1].Hint == u.Hint {
			out[n-1].Key = out[n-1].Keys() + " " + u.Keys()
			out[n-1].Short, out[n-1].Binding = out[n-1].HintText(), nil
			continue
		}
		out = append(out, u)
	}
	return out
}
