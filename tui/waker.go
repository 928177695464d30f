package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
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

// wakeKeys are the attributes the frame reads to say what ended the
// selected thread's wait at the cursor: its status and its Waker.
type wakeKeys struct{ status, waker core.Key }

// wakeKeysOf returns the selected Control Flow thread's wake keys
// (waker -1 when there is none to read).
func (b *browser) wakeKeysOf() wakeKeys {
	none := wakeKeys{-1, -1}
	t := b.tree()
	if b.pane != viewControlFlow || t == nil {
		return none
	}
	sel := t.selected()
	if sel < 0 || t.node(sel).thread < 0 {
		return none
	}
	n := new(t.node(sel))
	k, ok := b.hist.Attributes().Child(n.thread, core.AttrWaker)
	if !ok {
		return none
	}
	return wakeKeys{n.key, k}
}

// readWaker returns the Waker interval that starts where the wait at the
// cursor ends (ok false when the cursor is not on a wait, or no wake-up
// ended it).
func readWaker(ctx context.Context, h core.History, wk wakeKeys, atCursor map[core.Key]core.Interval) (core.Interval, bool) {
	if wk.waker < 0 {
		return core.Interval{}, false
	}
	st, ok := atCursor[wk.status]
	if !ok || st.Value.Kind() != core.KindInt32 || core.ThreadStatus(st.Value.Int()) != core.ThreadWaitBlocked {
		return core.Interval{}, false
	}
	if _, end := h.Bounds(); st.End >= end {
		return core.Interval{}, false
	}
	iv, _, err := h.Single(ctx, wk.waker, st.End+1)
	if err != nil || iv.Start != st.End+1 {
		return core.Interval{}, false
	}
	return iv, true
}

// wakerText describes what ended a wait: "woken by kworker/0:1 101 on
// CPU 0 at +1.204s", "woken by IRQ 30 on CPU 1 at ...", "timer ...".
func (b *browser) wakerText(iv core.Interval) string {
	w, ok := core.DecodeWaker(iv.Value)
	if !ok {
		return ""
	}
	at := " at " + b.relTime(iv.Start)
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
		return verb + b.threadLabel(w) + on + at
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
func (b *browser) threadLabel(w core.Waker) string { return b.threadNamed(wakerAttr(w)) }

// wakerAttr is the Threads/<tid> attribute name of a waker thread.
func wakerAttr(w core.Waker) string { return core.ThreadName(int64(w.ID), w.CPU) }

// followWaker moves Control Flow to the thread that ended the wait at the
// cursor, at the wake-up time, remembering where it was.
func (b *browser) followWaker() tea.Cmd {
	t := b.tree()
	var iv core.Interval
	ok := b.pane == viewControlFlow && b.frame != nil && b.frame.woken
	if ok {
		iv = b.frame.woke
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
	n, found := t.byTID(wakerAttr(w))
	if !found {
		b.setNote(noteInfo, "waker thread "+wakerAttr(w)+" has no row")
		return nil
	}
	if len(b.wakerJumps) == maxWakerJumps {
		b.wakerJumps = b.wakerJumps[1:]
	}
	b.wakerJumps = append(b.wakerJumps, wakerJump{node: t.selected(), cursor: b.cursor})
	t.selectNode(n)
	return b.moveCursor(iv.Start, true)
}

// wakerBack returns to where the last followWaker left.
func (b *browser) wakerBack() tea.Cmd {
	if len(b.wakerJumps) == 0 || b.pane != viewControlFlow {
		b.setNote(noteInfo, "no waker jump to come back from")
		return nil
	}
	j := b.wakerJumps[len(b.wakerJumps)-1]
	b.wakerJumps = b.wakerJumps[:len(b.wakerJumps)-1]
	if j.node >= 0 {
		b.tree().selectNode(j.node)
	}
	return b.moveCursor(j.cursor, true)
}
