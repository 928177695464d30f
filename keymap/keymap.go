// Package keymap holds tracetui's key bindings as one struct of
// key.Binding, from which the help screen and the README key table are
// generated, so keys and help never drift.
//
// Users override bindings in $XDG_CONFIG_HOME/tracetui/keys.json (see
// [Load] for the JSON shape).
package keymap

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every key binding of the browser. The browser matches keys
// against these fields only; the README key table is generated from them
// by [KeyMap.Actions], the full help (`?`) and the one-line hints by
// [KeyMap.Focuses].
type KeyMap struct {
	// Rows and table lines.
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding

	// Time: cursor, pan and zoom.
	Left          key.Binding
	Right         key.Binding
	PanLeft       key.Binding
	PanRight      key.Binding
	ZoomIn        key.Binding
	ZoomOut       key.Binding
	ZoomSelection key.Binding
	ZoomAll       key.Binding
	PrevChange    key.Binding
	NextChange    key.Binding
	Select        key.Binding
	GoTo          key.Binding
	GoToEvent     key.Binding
	SetMark       key.Binding
	JumpMark      key.Binding
	Copy          key.Binding
	AbsTimes      key.Binding

	// Rows: tree, views and search.
	Toggle       key.Binding
	ExpandAll    key.Binding
	CollapseAll  key.Binding
	HideIdle     key.Binding
	ProcessTree  key.Binding
	ControlFlow  key.Binding
	Resources    key.Binding
	Find         key.Binding
	FindNext     key.Binding
	FindPrev     key.Binding
	FollowWaker  key.Binding
	WakerBack    key.Binding
	CriticalPath key.Binding
	FlowJump     key.Binding

	// Event table.
	Focus       key.Binding
	Filter      key.Binding
	ToggleTable key.Binding
	GrowTable   key.Binding
	ShrinkTable key.Binding
	Details     key.Binding
	// Horizontal scrolling of the Contents column (table focused).
	ContentsLeft  key.Binding
	ContentsRight key.Binding

	// Overview and statistics.
	Stats       key.Binding
	SortNext    key.Binding
	SortReverse key.Binding
	Overview    key.Binding
	OverviewST  key.Binding
	CallTree    key.Binding
	Compare     key.Binding
	MarkThread  key.Binding
	SideBySide  key.Binding
	AlignMarks  key.Binding

	// Screen.
	Legend key.Binding
	Help   key.Binding
	Quit   key.Binding
}

// Action names one binding: its stable JSON name (used in keys.json), the
// help group it is listed in, and the binding itself.
type Action struct {
	Name    string
	Group   string
	Binding *key.Binding
}

// Groups of the README key table (the help lists keys by focus: see
// [KeyMap.Focuses]).
const (
	GroupMove  = "move"
	GroupTime  = "time"
	GroupRows  = "rows"
	GroupTable = "table"
	GroupViews = "overview"
	GroupApp   = "screen"
)

func bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// Default returns the built-in bindings.
func Default() KeyMap {
	return KeyMap{
		Up:       bind("k/↑", "row up", "k", "up"),
		Down:     bind("j/↓", "row down", "j", "down"),
		PageUp:   bind("pgup/^u", "page up", "pgup", "ctrl+u", "ctrl+b"),
		PageDown: bind("pgdn/^d", "page down", "pgdown", "ctrl+d", "ctrl+f"),
		Top:      bind("g", "first row", "g", "home"),
		Bottom:   bind("G", "last row", "G", "end"),

		Left:          bind("h/←", "cursor left", "h", "left"),
		Right:         bind("l/→", "cursor right", "l", "right"),
		PanLeft:       bind("a/H", "pan left", "a", "H"),
		PanRight:      bind("d/L", "pan right", "d", "L"),
		ZoomIn:        bind("w/+", "zoom in · finer p", "w", "+", "="),
		ZoomOut:       bind("s/-", "zoom out · coarser p", "s", "-"),
		ZoomSelection: bind("z", "zoom to selection", "z"),
		ZoomAll:       bind("0", "whole trace", "0"),
		PrevChange:    bind("[", "prev state change", "["),
		NextChange:    bind("]", "next state change", "]"),
		Select:        bind("space", "start/end selection", " "),
		GoTo:          bind(":", "go to time or range", ":"),
		GoToEvent:     bind("#", "go to event number", "#"),
		SetMark:       bind("m", "set mark + letter", "m"),
		JumpMark:      bind("'", "go to mark + letter", "'"),
		Copy:          bind("y", "copy time/selection/event", "y"),
		AbsTimes:      bind("T", "abs/+offset times", "T"),

		Toggle:       bind("enter", "expand · go to event/part", "enter"),
		ExpandAll:    bind("E", "expand all rows", "E"),
		CollapseAll:  bind("C", "collapse all rows", "C"),
		HideIdle:     bind("x", "hide/show rows idle in the window", "x"),
		ProcessTree:  bind("p", "process tree: parents over children", "p"),
		ControlFlow:  bind("1", "Control Flow", "1"),
		Resources:    bind("2", "Resources", "2"),
		Find:         bind("/", "find row", "/"),
		FindNext:     bind("n", "next match", "n"),
		FindPrev:     bind("N", "previous match", "N"),
		FollowWaker:  bind("W", "go to the waker of the wait", "W"),
		WakerBack:    bind("B", "back from the waker", "B"),
		CriticalPath: bind("P", "critical path of the thread", "P"),
		FlowJump:     bind("e", "next flow step (cycles)", "e"),

		Focus:       bind("tab", "focus table · next stats", "tab"),
		Filter:      bind("f", "filter column", "f"),
		ToggleTable: bind("t", "show/hide table", "t"),
		GrowTable:   bind("}", "taller table", "}"),
		ShrinkTable: bind("{", "shorter table", "{"),
		Details:     bind("i", "event and row details", "i"),

		ContentsLeft:  bind("(", "scroll contents left", "(", "shift+left"),
		ContentsRight: bind(")", "scroll contents right", ")", "shift+right"),

		Stats:       bind("S", "statistics", "S"),
		SortNext:    bind(">", "sort by next column", ">"),
		SortReverse: bind("<", "reverse sort order", "<"),
		Overview:    bind("o", "temporal overview", "o"),
		OverviewST:  bind("O", "spatiotemporal overview", "O"),
		CallTree:    bind("F", "call tree · flame graph", "F"),
		Compare:     bind("D", "compare 2 selections/threads/traces", "D"),
		MarkThread:  bind("M", "mark thread A, then B, to compare", "M"),
		SideBySide:  bind("V", "BASE and NEW side by side", "V"),
		AlignMarks:  bind("A", "side by side: align at mark + letter", "A"),

		Legend: bind("c", "legend", "c"),
		Help:   bind("?", "help", "?"),
		Quit:   bind("q", "quit", "q", "ctrl+c"),
	}
}

// Actions lists every binding with its JSON name and help group, in help
// order. It is the single list the help, the README table, the overrides
// and the tests iterate over.
func (k *KeyMap) Actions() []Action {
	return []Action{
		{"up", GroupMove, &k.Up},
		{"down", GroupMove, &k.Down},
		{"page_up", GroupMove, &k.PageUp},
		{"page_down", GroupMove, &k.PageDown},
		{"top", GroupMove, &k.Top},
		{"bottom", GroupMove, &k.Bottom},

		{"left", GroupTime, &k.Left},
		{"right", GroupTime, &k.Right},
		{"pan_left", GroupTime, &k.PanLeft},
		{"pan_right", GroupTime, &k.PanRight},
		{"zoom_in", GroupTime, &k.ZoomIn},
		{"zoom_out", GroupTime, &k.ZoomOut},
		{"zoom_selection", GroupTime, &k.ZoomSelection},
		{"zoom_all", GroupTime, &k.ZoomAll},
		{"prev_change", GroupTime, &k.PrevChange},
		{"next_change", GroupTime, &k.NextChange},
		{"select", GroupTime, &k.Select},
		{"goto", GroupTime, &k.GoTo},
		{"goto_event", GroupTime, &k.GoToEvent},
		{"set_mark", GroupTime, &k.SetMark},
		{"jump_mark", GroupTime, &k.JumpMark},
		{"copy", GroupTime, &k.Copy},
		{"abs_times", GroupTime, &k.AbsTimes},

		{"toggle", GroupRows, &k.Toggle},
		{"expand_all", GroupRows, &k.ExpandAll},
		{"collapse_all", GroupRows, &k.CollapseAll},
		{"hide_idle", GroupRows, &k.HideIdle},
		{"process_tree", GroupRows, &k.ProcessTree},
		{"control_flow", GroupRows, &k.ControlFlow},
		{"resources", GroupRows, &k.Resources},
		{"find", GroupRows, &k.Find},
		{"find_next", GroupRows, &k.FindNext},
		{"find_prev", GroupRows, &k.FindPrev},
		{"follow_waker", GroupRows, &k.FollowWaker},
		{"waker_back", GroupRows, &k.WakerBack},
		{"critical_path", GroupViews, &k.CriticalPath},
		{"flow_jump", GroupRows, &k.FlowJump},

		{"focus", GroupTable, &k.Focus},
		{"filter", GroupTable, &k.Filter},
		{"toggle_table", GroupTable, &k.ToggleTable},
		{"grow_table", GroupTable, &k.GrowTable},
		{"shrink_table", GroupTable, &k.ShrinkTable},
		{"details", GroupTable, &k.Details},
		{"contents_left", GroupTable, &k.ContentsLeft},
		{"contents_right", GroupTable, &k.ContentsRight},

		{"stats", GroupViews, &k.Stats},
		{"sort", GroupViews, &k.SortNext},
		{"sort_reverse", GroupViews, &k.SortReverse},
		{"overview", GroupViews, &k.Overview},
		{"overview_st", GroupViews, &k.OverviewST},
		{"call_tree", GroupViews, &k.CallTree},
		{"compare", GroupViews, &k.Compare},
		{"mark_thread", GroupViews, &k.MarkThread},
		{"side_by_side", GroupViews, &k.SideBySide},
		{"align_marks", GroupViews, &k.AlignMarks},

		{"legend", GroupApp, &k.Legend},
		{"help", GroupApp, &k.Help},
		{"quit", GroupApp, &k.Quit},
	}
}
