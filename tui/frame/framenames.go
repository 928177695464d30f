package frame

import (
	"strconv"
	"strings"
	"sync"

	"github.com/tracetui/tracetui/core"
)

// Call-stack frames (Threads/<tid>/CallStack/<depth>) hold a function
// name or an address. The browser shows every frame through one
// frameNames: the trace's symbols where it has them (see frameLabeler:
// --symbols, a mapping file beside the trace, the ELF files of the
// statedump), else the address as core.FormatAddress prints it. The call
// tree, the details line and pane and the Gantt's call-stack rows (their
// paint and the names written in wide calls, runlabels.go) thus name a
// frame alike. Resolution is cached per thread and value: a
// thread calls few functions many times, and frames are drawn at every
// keypress.

// FrameNames names call-stack frames, with a cache. It is safe for
// concurrent use (frame queries run off the UI goroutine).
type FrameNames struct {
	At    *core.AttributeTree
	Label func(thread core.Key, v core.Value) string // nil: no symbols

	mu    sync.Mutex
	Cache map[FrameID]FrameEntry
}

// FrameID is one frame value of one thread (a process's addresses are
// its own: the same address may name different functions elsewhere).
type FrameID struct {
	thread core.Key
	v      core.Value
}

// maxFrameNames bounds the cache: past it, names are resolved each time
// (a trace with more distinct frames than this is not browsed by name).
const maxFrameNames = 1 << 16

// NewFrameNames names the frames of tr's call stacks.
func NewFrameNames(tr Trace) *FrameNames {
	n := &FrameNames{At: tr.History().Attributes(), Cache: map[FrameID]FrameEntry{}}
	if fl, ok := tr.(frameLabeler); ok {
		n.Label = fl.FrameLabel
	}
	return n
}

// stackThread returns the thread of a call-stack depth attribute
// (Threads/<tid>/CallStack/<depth>), or ok false for any other key.
func (n *FrameNames) stackThread(k core.Key) (core.Key, bool) {
	if k < 0 {
		return -1, false
	}
	stack := n.At.Parent(k)
	if stack < 0 || n.At.Name(stack) != core.AttrCallStack {
		return -1, false
	}
	return n.At.Parent(stack), true
}

// frameOf returns the thread and the frame that the value v of attribute
// k stands for: a call-stack depth's value, or the address that a
// user-space thread's own value names (its outermost frame, stored as
// core.FormatAddress prints it; only looked at when symbols can name it).
func (n *FrameNames) frameOf(k core.Key, v core.Value) (core.Key, core.Value, bool) {
	switch {
	case v.IsNull() || k < 0:
		return -1, v, false
	case v.Kind() == core.KindString: // a name is its own label: only a thread's "0x..." may be a frame
		if n.Label == nil {
			return -1, v, false
		}
		hex, ok := strings.CutPrefix(v.Str(), "0x")
		if !ok {
			return -1, v, false
		}
		addr, err := strconv.ParseUint(hex, 16, 64)
		if _, stack := n.At.Child(k, core.AttrCallStack); err != nil || !stack {
			return -1, v, false
		}
		return k, core.Int64(int64(addr)), true
	}
	th, ok := n.stackThread(k)
	return th, v, ok
}

// Text names the value v of attribute k when it is a frame (see frameOf;
// ok true), else ok is false.
func (n *FrameNames) Text(k core.Key, v core.Value) (string, bool) {
	if n == nil {
		return "", false
	}
	th, fv, ok := n.frameOf(k, v)
	if !ok {
		return "", false
	}
	return n.Name(th, fv), true
}

// Describe prints the value v of attribute k for the details line and
// pane: a frame by name, any other value as describeValue does in the
// domain d.
func (n *FrameNames) Describe(k core.Key, d ValueDomain, v core.Value) string {
	if s, ok := n.Text(k, v); ok {
		return s
	}
	return DescribeValue(d, v)
}

// framePaint is the paint of the value v of attribute k when it is a
// frame (see frameOf): a stable colour per name, its first letter as
// glyph; ok is false otherwise (and on a nil receiver), painted as usual.
func (n *FrameNames) framePaint(k core.Key, v core.Value) (Paint, bool) {
	if n == nil {
		return Paint{}, false
	}
	th, fv, ok := n.frameOf(k, v)
	if !ok {
		return Paint{}, false
	}
	return n.entry(th, fv).paint, true
}

// Name names a frame (not null) of thread th.
func (n *FrameNames) Name(th core.Key, v core.Value) string { return n.entry(th, v).text }

// FrameEntry is a frame's name and paint.
type FrameEntry struct {
	text  string
	paint Paint
}

// entry resolves a frame once.
func (n *FrameNames) entry(th core.Key, v core.Value) FrameEntry {
	id := FrameID{th, v}
	if n.Label == nil {
		id.thread = -1 // an address reads the same in every thread
	}
	n.mu.Lock()
	e, ok := n.Cache[id]
	n.mu.Unlock()
	if ok {
		return e
	}
	e.text = core.FrameText(v)
	if n.Label != nil {
		e.text = n.Label(th, v)
	}
	e.paint = stringPaint(e.text)
	n.mu.Lock()
	if len(n.Cache) < maxFrameNames {
		n.Cache[id] = e
	}
	n.mu.Unlock()
	return e
}

// framePaintOf is a cached answer of framePaint.
type framePaintOf struct {
	paint Paint
	ok    bool
}

// framePaint is frameNames.framePaint of the value id in row k, cached
// for the row being finished: a row is one thread, and its cells repeat a
// few frames.
func (b *FrameBuilder) framePaint(k core.Key, id int32) (Paint, bool) {
	if b.framePaints == nil || b.frameRow != k {
		b.framePaints = make(map[int32]framePaintOf)
		b.frameRow = k
	}
	if c, ok := b.framePaints[id]; ok {
		return c.paint, c.ok
	}
	p, ok := b.Req.Names.framePaint(k, b.values[id])
	b.framePaints[id] = framePaintOf{p, ok}
	return p, ok
}

// frameLabeler is implemented by traces that can name call-stack
// addresses (symbols); other traces show them in hexadecimal.
type frameLabeler interface {
	FrameLabel(thread core.Key, v core.Value) string
}
