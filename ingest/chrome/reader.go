package chrome

import (
	"context"
	"fmt"
	"io"
)

// rawEvent is one event object as the first pass reads it. Its slices
// alias the reader's buffer or scratch space: valid until the next event.
type rawEvent struct {
	offset           int64 // input offset of the event's '{'
	length           int   // bytes of the event object
	ph               byte  // 0 when absent
	name, cat, id    []byte
	pid, tid         []byte // text of the number, or the decoded string
	hasPid, hasTid   bool
	pidNum, tidNum   bool // given as JSON numbers
	idNum            bool
	bindEnclosing    bool // "bp": "e" (flow events; also kept in extra)
	ts, dur          int64
	hasTs, hasDur    bool
	args             []byte // raw JSON value of "args", nil if absent
	extra            []byte // the other members, raw `"key":value` joined by ','
	nameEsc, catEsc  []byte // scratch for unescaped strings
	idEsc            []byte
	pidEsc, tidEsc   []byte
	extraBuf, id2Buf []byte
}

// Reader states.
const (
	stTop    = iota // before the top-level value
	stObjKey        // object form: expecting a member or '}'
	stArray         // inside the events array
	stDone          // after the last event
)

// eventReader streams the event objects of a Chrome trace: the array form
// `[{...}, ...]` (closing ']' optional, as the format allows) or the object
// form `{"traceEvents": [...], ...}`, whose other members are skipped
// without buffering them.
type eventReader struct {
	r        io.Reader
	buf      []byte
	pos, end int
	base     int64 // input offset of buf[0]
	eof      bool
	state    int
	inObject bool
	maxEvent int // largest event object accepted, in bytes
	// truncated is set when the input ends inside an event or the
	// object form ends before its closing brace.
	truncated string
	readErr   error           // the input's read error, after which it counts as ended
	ctx       context.Context // nil: not cancellable
}

// ctxErr returns the error of the reader's context, if it is done.
func (er *eventReader) ctxErr() error {
	if er.ctx == nil {
		return nil
	}
	return er.ctx.Err()
}

func newEventReader(r io.Reader, bufSize, maxEvent int) *eventReader {
	return &eventReader{r: r, buf: make([]byte, bufSize), maxEvent: maxEvent}
}

// offset returns the input offset of the next unread byte.
func (er *eventReader) offset() int64 { return er.base + int64(er.pos) }

// fill makes room and reads more input. It returns false at end of input
// with nothing new read.
func (er *eventReader) fill() (bool, error) {
	if er.eof {
		return false, nil
	}
	if er.pos > 0 {
		n := copy(er.buf, er.buf[er.pos:er.end])
		er.base += int64(er.pos)
		er.pos, er.end = 0, n
	}
	if er.end == len(er.buf) {
		if len(er.buf) >= er.maxEvent {
			return false, fmt.Errorf("offset %d: event larger than %d bytes", er.offset(), er.maxEvent)
		}
		nb := make([]byte, min(2*len(er.buf), er.maxEvent))
		copy(nb, er.buf[:er.end])
		er.buf = nb
	}
	// Fill the free space whole: a gzip reader returns a few KB per Read,
	// and the caller re-parses an incomplete event from its start after
	// each fill, so short fills would make large events quadratic.
	start := er.end
	for er.end < len(er.buf) {
		if err := er.ctxErr(); err != nil {
			return false, err
		}
		n, err := er.r.Read(er.buf[er.end:])
		er.end += n
		if err == io.EOF {
			er.eof = true
			break
		}
		if err != nil {
			// Keep what was read: the caller decides whether the error
			// (a cut gzip stream...) loses the rest or the whole.
			er.readErr, er.eof = err, true
			break
		}
	}
	return er.end > start, nil
}

// peek returns the next non-space byte without consuming it.
func (er *eventReader) peek() (byte, bool, error) {
	for {
		er.pos = skipSpace(er.buf[:er.end], er.pos)
		if er.pos < er.end {
			return er.buf[er.pos], true, nil
		}
		ok, err := er.fill()
		if err != nil || !ok {
			return 0, false, err
		}
	}
}

func (er *eventReader) syntaxf(format string, a ...any) error {
	return fmt.Errorf("offset %d: %s", er.offset(), fmt.Sprintf(format, a...))
}

// next reads the next event into ev. It returns false after the last one.
func (er *eventReader) next(ev *rawEvent) (bool, error) {
	for {
		if er.state == stDone {
			return false, nil
		}
		c, ok, err := er.peek()
		if err != nil {
			return false, err
		}
		if !ok {
			switch {
			case er.state == stTop:
				if er.offset() > 0 {
					return false, fmt.Errorf("the file holds only blank space: not a Chrome trace")
				}
				return false, fmt.Errorf("empty file: not a Chrome trace")
			case er.inObject:
				er.truncated = fmt.Sprintf("offset %d: trace ends before the closing '}' of its JSON object", er.offset())
			}
			er.state = stDone
			return false, nil
		}
		switch er.state {
		case stTop:
			if c == 0xEF { // a UTF-8 byte order mark before the JSON text
				if er.end-er.pos < 3 {
					if _, err := er.fill(); err != nil {
						return false, err
					}
				}
				if er.end-er.pos >= 3 && er.buf[er.pos+1] == 0xBB && er.buf[er.pos+2] == 0xBF {
					er.pos += 3
					continue
				}
			}
			switch c {
			case '[':
				er.state = stArray
			case '{':
				er.state, er.inObject = stObjKey, true
			default:
				return false, er.syntaxf("not a Chrome trace: want '[' or '{', found %q", c)
			}
			er.pos++
		case stObjKey:
			if err := er.member(c); err != nil {
				return false, err
			}
		case stArray:
			switch c {
			case ',':
				er.pos++
			case ']':
				er.pos++
				er.state = stDone
				if er.inObject {
					er.state = stObjKey
				}
			case '{':
				return er.event(ev)
			default:
				return false, er.syntaxf("want an event object, found %q", c)
			}
		}
	}
}

// member reads one member of the top-level object: traceEvents opens the
// array, anything else is skipped.
func (er *eventReader) member(c byte) error {
	switch c {
	case ',':
		er.pos++
		return nil
	case '}':
		er.pos++
		er.state = stDone
		return nil
	case '"':
	default:
		return er.syntaxf("want a member name, found %q", c)
	}
	var key []byte
	for {
		end, _, err := scanString(er.buf[:er.end], er.pos)
		if err == errShort {
			if ok, ferr := er.fill(); ferr != nil || !ok {
				er.truncated = fmt.Sprintf("offset %d: trace ends inside a member name", er.offset())
				er.state = stDone
				return ferr
			}
			continue
		}
		if err != nil {
			return er.syntaxf("bad member name")
		}
		key = er.buf[er.pos+1 : end-1]
		er.pos = end
		break
	}
	isEvents := string(key) == "traceEvents"
	c, ok, err := er.peek()
	if err != nil {
		return err
	}
	if !ok || c != ':' {
		if !ok {
			er.truncated = fmt.Sprintf("offset %d: trace ends after a member name", er.offset())
			er.state = stDone
			return nil
		}
		return er.syntaxf("want ':' after a member name, found %q", c)
	}
	er.pos++
	c, ok, err = er.peek()
	if err != nil {
		return err
	}
	if !ok {
		er.truncated = fmt.Sprintf("offset %d: trace ends before a member value", er.offset())
		er.state = stDone
		return nil
	}
	if isEvents && c == '[' {
		er.pos++
		er.state = stArray
		return nil
	}
	return er.skipStream()
}

// skipStream skips one JSON value that may be larger than the buffer
// (stackFrames, systemTraceEvents...), keeping only its nesting state.
func (er *eventReader) skipStream() error {
	depth, inString, escape := 0, false, false
	for {
		for er.pos < er.end {
			c := er.buf[er.pos]
			er.pos++
			switch {
			case inString:
				switch {
				case escape:
					escape = false
				case c == '\\':
					escape = true
				case c == '"':
					inString = false
					if depth == 0 {
						return nil
					}
				}
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				if depth == 0 { // end of the enclosing object: a scalar ended
					er.pos--
					return nil
				}
				depth--
				if depth == 0 {
					return nil
				}
			case c == ',' && depth == 0:
				er.pos--
				return nil
			}
		}
		ok, err := er.fill()
		if err != nil {
			return err
		}
		if !ok {
			er.truncated = fmt.Sprintf("offset %d: trace ends inside a top-level member", er.offset())
			er.state = stDone
			return nil
		}
	}
}

// event parses the event object at the read position, refilling until it
// is whole.
func (er *eventReader) event(ev *rawEvent) (bool, error) {
	for {
		n, err := parseEvent(er.buf[er.pos:er.end], ev)
		if err == errShort {
			ok, ferr := er.fill()
			if ferr != nil {
				return false, ferr
			}
			if !ok {
				er.truncated = fmt.Sprintf("offset %d: trace ends inside an event (%d bytes); the incomplete event is dropped", er.offset(), er.end-er.pos)
				er.state = stDone
				return false, nil
			}
			continue
		}
		if err != nil {
			return false, fmt.Errorf("offset %d: %w (in the event at offset %d)", er.offset()+int64(n), err, er.offset())
		}
		ev.offset, ev.length = er.offset(), n
		er.pos += n
		return true, nil
	}
}

// parseEvent parses the event object at the start of b into ev and returns
// its length, or, with an error, the position of the error (errShort: the
// object continues past b).
func parseEvent(b []byte, ev *rawEvent) (int, error) {
	ev.ph, ev.name, ev.cat, ev.id, ev.pid, ev.tid, ev.args = 0, nil, nil, nil, nil, nil, nil
	ev.hasPid, ev.hasTid, ev.pidNum, ev.tidNum, ev.hasTs, ev.hasDur, ev.idNum = false, false, false, false, false, false, false
	ev.bindEnclosing = false
	ev.ts, ev.dur = 0, 0
	ev.extraBuf = ev.extraBuf[:0]
	var id2 []byte
	i := 1 // past '{'
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, errShort
		}
		switch b[i] {
		case '}':
			ev.extra = ev.extraBuf
			if ev.id == nil && id2 != nil {
				ev.id2Buf = append(ev.id2Buf[:0], id2...)
				ev.id = ev.id2Buf
			}
			return i + 1, nil
		case ',':
			i++
			continue
		case '"':
		default:
			return i, errSyntax
		}
		keyStart := i
		keyEnd, _, err := scanString(b, i)
		if err != nil {
			return i, err
		}
		key := b[i+1 : keyEnd-1]
		i = skipSpace(b, keyEnd)
		if i >= len(b) {
			return 0, errShort
		}
		if b[i] != ':' {
			return i, errSyntax
		}
		i = skipSpace(b, i+1)
		vstart := i
		vend, err := skipValue(b, i)
		if err != nil {
			return i, err
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return 0, errShort
		}
		if b[i] != ',' && b[i] != '}' {
			return i, errSyntax
		}
		val := b[vstart:vend]
		isStr := val[0] == '"'
		switch string(key) {
		case "ph":
			if isStr && len(val) > 2 {
				ev.ph = val[1]
			}
		case "ts":
			ev.ts, ev.hasTs = numberMicros(val)
		case "dur":
			ev.dur, ev.hasDur = numberMicros(val)
		case "name":
			ev.name, ev.nameEsc = textOf(val, ev.nameEsc)
		case "cat":
			ev.cat, ev.catEsc = textOf(val, ev.catEsc)
		case "id":
			ev.id, ev.idEsc = textOf(val, ev.idEsc)
			ev.idNum = !isStr
		case "id2":
			id2 = val
		case "pid":
			ev.pid, ev.pidEsc = textOf(val, ev.pidEsc)
			ev.hasPid, ev.pidNum = true, !isStr
		case "tid":
			ev.tid, ev.tidEsc = textOf(val, ev.tidEsc)
			ev.hasTid, ev.tidNum = true, !isStr
		case "args":
			ev.args = val
		default:
			if string(key) == "bp" && string(val) == `"e"` {
				ev.bindEnclosing = true
			}
			if len(ev.extraBuf) > 0 {
				ev.extraBuf = append(ev.extraBuf, ',')
			}
			ev.extraBuf = append(ev.extraBuf, b[keyStart:keyEnd]...)
			ev.extraBuf = append(ev.extraBuf, ':')
			ev.extraBuf = append(ev.extraBuf, val...)
		}
	}
}

// textOf returns the text of a JSON scalar: a string's decoded contents
// (decoded into scratch only when it has escapes) or a number's digits.
func textOf(val, scratch []byte) ([]byte, []byte) {
	if val[0] != '"' {
		if val[0] == '{' || val[0] == '[' {
			return val, scratch // kept as raw JSON text
		}
		return val, scratch
	}
	for _, c := range val[1 : len(val)-1] {
		if c == '\\' {
			scratch = unquote(scratch[:0], val)
			return scratch, scratch
		}
	}
	return val[1 : len(val)-1], scratch
}

// numberMicros reads a timestamp or duration: a JSON number of
// microseconds, or a string holding one.
func numberMicros(val []byte) (int64, bool) {
	if val[0] == '"' {
		val = val[1 : len(val)-1]
	}
	return parseMicros(val)
}
