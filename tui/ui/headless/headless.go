package headless

import tea "github.com/charmbracelet/bubbletea"

// Driver runs a Model without a terminal: every command runs
// synchronously on the caller's goroutine, in order, until none is left
// (tests: the same messages in the same order every run); or, when
// concurrent, each command on a goroutine of its own as Bubble Tea runs
// them, their messages delivered to Update on the caller's goroutine as
// they arrive, until none is left (`bench frames`: the time the user
// waits, the frame's query and the event table's page overlapping on the
// two cores as they do on the screen).
type Driver struct {
	M          tea.Model
	Quit       bool
	Concurrent bool
}

// Run executes cmd and everything it leads to.
func (d *Driver) Run(cmd tea.Cmd) {
	if d.Concurrent {
		d.runConcurrent(cmd)
		return
	}
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			d.Quit = true
		default:
			_, next := d.M.Update(msg)
			queue = append(queue, next)
		}
	}
}

// runConcurrent executes cmd and everything it leads to, each command on
// its own goroutine.
func (d *Driver) runConcurrent(cmd tea.Cmd) {
	msgs := make(chan tea.Msg)
	pending := 0
	start := func(c tea.Cmd) {
		if c != nil {
			pending++
			go func() { msgs <- c() }()
		}
	}
	start(cmd)
	for pending > 0 {
		msg := <-msgs
		pending--
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				start(c)
			}
		case tea.QuitMsg:
			d.Quit = true
		default:
			_, next := d.M.Update(msg)
			start(next)
		}
	}
}

// Send delivers one message and runs what follows.
func (d *Driver) Send(msg tea.Msg) {
	_, cmd := d.M.Update(msg)
	d.Run(cmd)
}

// Key is the key named n: a single character, or a name such as
// "enter", "tab", "pgdown", "left", "esc", "space", "ctrl+c".
func Key(n string) tea.KeyMsg {
	named := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "tab": tea.KeyTab, "esc": tea.KeyEsc, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome,
		"end": tea.KeyEnd, "space": tea.KeySpace, "ctrl+c": tea.KeyCtrlC, "backspace": tea.KeyBackspace,
	}
	if kt, ok := named[n]; ok {
		if kt == tea.KeySpace {
			return tea.KeyMsg{Type: kt, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: kt}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(n)}
}
