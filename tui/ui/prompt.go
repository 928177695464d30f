package ui

import (
	"slices"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/frame"
)

// PromptKind is what the one-line prompt asks for.
type PromptKind uint8

const (
	promptNone   PromptKind = iota
	PromptGoTo              // ':' a time
	PromptFind              // '/' a row regex
	PromptFilter            // 'f' a column filter regex
	PromptEvent             // '#' an event number
	PromptSearch            // '/' in the table: a column regex, highlighted
	PromptOpen              // the compare key with nothing to compare: a trace's path
)

// Prompt is the input line that replaces the help line while the user
// types a time, a search or a filter. Typing only edits text: nothing is
// queried until enter. (A small line editor of its own: bubbles/textinput
// would pull a clipboard dependency in.)
type Prompt struct {
	sh    *Shared
	kind  PromptKind
	label string
	text  []rune
	pos   int   // cursor, in runes
	Err   error // shown inline after a rejected entry
	// replace: the text is selected after a rejected entry, so typing
	// replaces it instead of appending to it.
	replace bool
}

// PromptDoneMsg is a confirmed entry.
type PromptDoneMsg struct {
	Kind PromptKind
	Text string
}

// NewPrompt returns a closed prompt.
func NewPrompt(sh *Shared) Prompt { return Prompt{sh: sh} }

// Active reports whether the prompt is open.
func (p *Prompt) Active() bool { return p.kind != promptNone }

// Value is the text typed.
func (p *Prompt) Value() string { return string(p.text) }

// Open starts editing with a label and initial text.
func (p *Prompt) Open(kind PromptKind, label, text string) tea.Cmd {
	p.kind, p.Err, p.label, p.replace = kind, nil, label, false
	p.text = []rune(text)
	p.pos = len(p.text)
	return nil
}

// Close stops editing.
func (p *Prompt) Close() { p.kind, p.Err = promptNone, nil }

// Fail keeps the prompt open showing err; the previous state is kept.
func (p *Prompt) Fail(err error) tea.Cmd {
	p.Err, p.replace = err, true
	return nil
}

// Update edits the text; enter confirms (as a promptDoneMsg), esc cancels.
func (p *Prompt) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	switch k.Type {
	case tea.KeyEnter:
		kind, text := p.kind, p.Value()
		return func() tea.Msg { return PromptDoneMsg{kind, text} }
	case tea.KeyEsc, tea.KeyCtrlC:
		p.Close()
		return nil
	case tea.KeyRunes, tea.KeySpace:
		if p.replace {
			p.text, p.pos = nil, 0
		}
		if k.Paste || len(p.text)+len(k.Runes) <= 256 {
			p.text = slices.Insert(p.text, p.pos, k.Runes...)
			p.pos += len(k.Runes)
		}
	case tea.KeyBackspace:
		if p.pos > 0 {
			p.text = slices.Delete(p.text, p.pos-1, p.pos)
			p.pos--
		}
	case tea.KeyDelete:
		if p.pos < len(p.text) {
			p.text = slices.Delete(p.text, p.pos, p.pos+1)
		}
	case tea.KeyLeft:
		p.pos = max(p.pos-1, 0)
	case tea.KeyRight:
		p.pos = min(p.pos+1, len(p.text))
	case tea.KeyHome, tea.KeyCtrlA:
		p.pos = 0
	case tea.KeyEnd, tea.KeyCtrlE:
		p.pos = len(p.text)
	case tea.KeyCtrlU:
		p.text, p.pos = p.text[p.pos:], 0
	case tea.KeyCtrlW:
		i := p.pos
		for i > 0 && unicode.IsSpace(p.text[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(p.text[i-1]) {
			i--
		}
		p.text, p.pos = slices.Delete(p.text, i, p.pos), i
	default:
		return nil
	}
	p.Err, p.replace = nil, false
	return nil
}

// View renders the prompt line: label, text with the cursor, error.
func (p *Prompt) View() string {
	st := p.sh.Styles
	before, at, after := string(p.text[:p.pos]), " ", ""
	if p.pos < len(p.text) {
		at, after = string(p.text[p.pos]), string(p.text[p.pos+1:])
	}
	// Keep the cursor on screen: drop text from the left when too long.
	room := p.sh.Width - frame.Cells(p.label) - 2
	for frame.Cells(before) > 0 && frame.Cells(before)+frame.Cells(at) > room {
		_, n := firstRune(before)
		before = before[n:]
	}
	cur := st.Reverse.Render(at)
	if st.ASCII {
		cur = "_"
		if at != " " {
			cur = at
		}
	}
	s := st.Prompt.Render(p.label) + before + cur + after
	if p.Err != nil {
		s += "  " + st.Error.Render(p.Err.Error())
	}
	return s
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return 0, len(s)
}

// PromptView is a prompt on the stack of views, over the view that
// opened it, which owns the Prompt and handles its PromptDoneMsg: it
// closes the prompt on a good entry, or Fails it.
type PromptView struct{ P *Prompt }

// Update edits the prompt; esc closes it.
func (v *PromptView) Update(msg tea.Msg) Step {
	if _, ok := msg.(tea.KeyMsg); !ok || !v.P.Active() {
		return Step{}
	}
	cmd := v.P.Update(msg)
	return Step{Cmd: cmd, Done: !v.P.Active()}
}

// View is never called: a Modal draws no body.
func (v *PromptView) View(a Area) []string { return FillLines(nil, a.Height) }

// Help leaves the line to Line.
func (v *PromptView) Help() string { return "" }

// Close has nothing to cancel.
func (v *PromptView) Close() {}

// Typing: the quit key is text.
func (v *PromptView) Typing() bool { return true }

// Closed reports that the prompt was closed.
func (v *PromptView) Closed() bool { return !v.P.Active() }

// Line is the prompt line: label, text with the cursor, error.
func (v *PromptView) Line() string { return v.P.View() }
