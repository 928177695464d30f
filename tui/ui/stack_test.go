package ui

import (
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/keymap"
)

// fake is a view that records what it was given and answers with step.
type fake struct {
	name   string
	log    *[]string
	step   Step
	closed bool
}

func (f *fake) Update(msg tea.Msg) Step {
	switch m := msg.(type) {
	case tea.KeyMsg:
		*f.log = append(*f.log, f.name+":"+m.String())
	case string:
		*f.log = append(*f.log, f.name+":"+m)
	}
	return f.step
}
func (f *fake) View(a Area) []string { return FillLines([]string{f.name}, a.Height) }
func (f *fake) Help() string         { return "" }
func (f *fake) Close()               { f.closed = true }

// base is the bottom view: a fake that keeps notes.
type base struct {
	fake
	notes   []string
	cleared int
}

func (b *base) Note(text string, _ bool) { b.notes = append(b.notes, text) }
func (b *base) KeyPressed(typing bool) {
	if !typing {
		b.cleared++
	}
}

// modal is a fake that takes every key until closed.
type modal struct {
	fake
	typing, done bool
}

func (m *modal) Typing() bool { return m.typing }
func (m *modal) Closed() bool { return m.done }
func (m *modal) Line() string { return "line of " + m.name }

func newTestStack(log *[]string) (*Stack, *base, *fake) {
	sh := &Shared{Width: 80, Height: 24, Keys: keymap.Default()}
	b := &base{fake: fake{name: "base", log: log}}
	help := &fake{name: "help", log: log, step: Step{Done: true}}
	return NewStack(sh, b, func() View { return help }), b, help
}

func runeKey(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }

// TestStackRoutesByOneRule: a key goes to the top view and down while
// views pass it; any other message goes to every view, top down, the
// base last; Done pops the view and those above it, Open pushes.
func TestStackRoutesByOneRule(t *testing.T) {
	var log []string
	s, b, _ := newTestStack(&log)
	a := &fake{name: "a", log: &log, step: Step{Pass: true}}
	c := &fake{name: "c", log: &log}
	s.Push(a)
	s.Push(c)
	s.Route(runeKey('x'))
	if want := []string{"c:x"}; !slices.Equal(log, want) {
		t.Fatalf("a key the top view uses: %q, want %q", log, want)
	}
	log = nil
	c.step = Step{Pass: true}
	s.Route(runeKey('y'))
	if want := []string{"c:y", "a:y", "base:y"}; !slices.Equal(log, want) {
		t.Fatalf("a key every view passes: %q, want %q", log, want)
	}
	log = nil
	s.Route("report")
	if want := []string{"c:report", "a:report", "base:report"}; !slices.Equal(log, want) {
		t.Fatalf("a message: %q, want %q", log, want)
	}
	if b.cleared != 2 {
		t.Errorf("the base was told of %d keys, want 2", b.cleared)
	}
	a.step = Step{Done: true, Note: "a is done"}
	c.step = Step{Pass: true}
	s.Route(runeKey('z'))
	if s.Len() != 1 || !a.closed || !c.closed || s.Top() != View(b) {
		t.Fatalf("Done on a (under c): %d views, a closed %v, c closed %v", s.Len(), a.closed, c.closed)
	}
	if !slices.Equal(b.notes, []string{"a is done"}) {
		t.Errorf("notes %q", b.notes)
	}
	d := &fake{name: "d", log: &log}
	b.step = Step{Open: d}
	s.Route(runeKey('o'))
	if s.Top() != View(d) {
		t.Fatal("Open from the base did not push the view")
	}
	b.step = Step{Done: true} // the base is never popped
	s.Route("tick")
	if s.At(0) != View(b) {
		t.Fatal("the base was popped")
	}
}

// TestStackModalAndRootKeys: a modal view takes every key (the help key
// included), draws no body and is dropped once closed; the quit key is
// text to a typing modal but Ctrl-C quits; the help key opens help over
// any other view, and goes to help when it is on top.
func TestStackModalAndRootKeys(t *testing.T) {
	var log []string
	s, b, help := newTestStack(&log)
	m := &modal{fake: fake{name: "prompt", log: &log}, typing: true}
	s.Push(m)
	if got := s.Body(Area{Width: 10, Height: 1}); !slices.Equal(got, []string{"base"}) {
		t.Errorf("body under a modal view: %q, want the base's", got)
	}
	if s.Line() != "line of prompt" {
		t.Errorf("help line %q", s.Line())
	}
	if cmd := s.Route(runeKey('?')); cmd != nil || s.Top() != View(m) || !slices.Equal(log, []string{"prompt:?"}) {
		t.Fatalf("the help key with a modal on top: %q, top %v", log, s.Top())
	}
	if cmd := s.Route(runeKey('q')); cmd != nil {
		t.Fatal("q quit while typing")
	}
	if b.cleared != 0 {
		t.Errorf("typing cleared the note %d times", b.cleared)
	}
	m.done = true
	s.Route("closed by its opener")
	if s.Len() != 1 || !m.closed {
		t.Fatalf("a closed modal stays: %d views", s.Len())
	}
	log = nil
	s.Route(runeKey('?'))
	if s.Top() != help || len(log) != 0 {
		t.Fatalf("the help key did not open help (top %v, log %q)", s.Top(), log)
	}
	s.Route(runeKey('?'))
	if s.Top() != View(b) || !slices.Equal(log, []string{"help:?"}) {
		t.Fatalf("the help key on help: %q, top %v", log, s.Top())
	}
	s.Push(&modal{fake: fake{name: "prompt", log: &log}, typing: true})
	if cmd := s.Route(tea.KeyMsg{Type: tea.KeyCtrlC}); cmd == nil || s.Len() != 1 || !b.closed {
		t.Fatalf("ctrl+c while typing: %d views, base closed %v", s.Len(), b.closed)
	}
	if _, ok := s.Route(runeKey('q'))().(tea.QuitMsg); !ok {
		t.Fatal("q does not quit without a modal view")
	}
}
