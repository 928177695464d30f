package gantt

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
)

// Wake-up links in Control Flow: when the cursor is on a wait of the
// selected thread, the details line says what ended it (the thread's
// Waker interval that starts where the wait ends, read by the frame
// query), and the follow-waker key moves to the waker at the wake-up
// time; the back key returns.

// maxWakerJumps bounds the positions the back key remembers.
const maxWakerJumps = 64

// wakerJump is a position to come back to: a Control Flow row and a time.
type wakerJump struct {
	node   int32
	cursor core.Time
}

// wakeKeysOf returns the selected Control Flow thread's wake keys
// (waker -1 when there is none to read).
func (b *Gantt) wakeKeysOf() frame.WakeKeys {
	none := frame.WakeKeys{Status: -1, Waker: -1}
	t := b.tree()
	if b.pane != frame.PaneControlFlow || t == nil {
		return none
	}
	sel := t.Selected()
	if sel < 0 || t.Node(sel).Thread < 0 {
		return none
	}
	n := new(t.Node(sel))
	k, ok := b.hist.Attributes().Child(n.Thread, core.AttrWaker)
	if !ok {
		return none
	}
	return frame.WakeKeys{Status: n.Key, Waker: k}
}

// wakerText describes what ended a wait: "woken by kworker/0:1 101 on
// CPU 0 at +1.204s", "woken by IRQ 30 on CPU 1 at ...", "timer ...".
func (b *Gantt) wakerText(iv core.Interval) string {
	w, ok := core.DecodeWaker(iv.Value)
	if !ok {
		return ""
	}
	at := " at " + b.RelTime(iv.Start)
	on := ""
	if w.CPU >= 0 {
		on = fmt.Sprintf(" on CPU %d", w.CPU)
	}
	switch w.Kind {
	case core.WakerThread, core.WakerFork:
		verb := "woken by "
		if w.Kind == core.WakerFork {
			verb = "forked by "
		}
		return verb + b.ThreadLabel(w) + on + at
	case core.WakerIRQ:
		return fmt.Sprintf("woken by IRQ %d%s%s", w.ID, on, at)
	case core.WakerSoftIRQ:
		return "woken by soft IRQ " + core.SoftIRQName(w.ID) + on + at
	case core.WakerTimer:
		return "timer" + on + at
	}
	return "woken by an unknown thread" + on + at
}

// threadLabel is a waker thread's Control Flow label ("name tid").
func (b *Gantt) ThreadLabel(w core.Waker) string { return b.threadNamed(frame.WakerAttr(w)) }

// followWaker moves Control Flow to the thread that ended the wait at the
// cursor, at the wake-up time, remembering where it was.
func (b *Gantt) followWaker() tea.Cmd {
	t := b.tree()
	var iv core.Interval
	ok := b.pane == frame.PaneControlFlow && b.frame != nil && b.frame.Woken
	if ok {
		iv = b.frame.Woke
	}
	w, isWaker := core.DecodeWaker(iv.Value)
	if !ok || !isWaker {
		b.setNote(noteInfo, "no waker here: put the cursor on a wait (blocked) of a thread")
		return nil
	}
	if w.Kind != core.WakerThread && w.Kind != core.WakerFork {
		b.setNote(noteInfo, b.wakerText(iv)+": not a thread")
		return nil
	}
	n, found := t.ByTID(frame.WakerAttr(w))
	if !found {
		b.setNote(noteInfo, "waker thread "+frame.WakerAttr(w)+" has no row")
		return nil
	}
	if len(b.wakerJumps) == maxWakerJumps {
		b.wakerJumps = b.wakerJumps[1:]
	}
	b.wakerJumps = append(b.wakerJumps, wakerJump{node: t.Selected(), cursor: b.cursor})
	t.SelectNode(n)
	return b.moveCursor(iv.Start, true)
}

// wakerBack returns to where the last followWaker left.
func (b *Gantt) wakerBack() tea.Cmd {
	if len(b.wakerJumps) == 0 || b.pane != frame.PaneControlFlow {
		b.setNote(noteInfo, "no waker jump to come back from")
		return nil
	}
	j := b.wakerJumps[len(b.wakerJumps)-1]
	b.wakerJumps = b.wakerJumps[:len(b.wakerJumps)-1]
	if j.node >= 0 {
		b.tree().SelectNode(j.node)
	}
	return b.moveCursor(j.cursor, true)
}
