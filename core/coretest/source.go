package coretest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// SliceSource is a [core.Source] over events held in memory, with real
// checkpoint semantics (the checkpoint is the rank of the next event). It
// stands in for a trace reader in tests of consumers: analyses, the event
// index, the browser.
type SliceSource struct {
	info   core.SourceInfo
	events []core.Event
	next   int
	cur    core.Event
	fields []core.Field
	warn   []core.Warning
}

// NewSliceSource returns a source delivering events in slice order (which
// must be non-decreasing in time). The events are copied on delivery, so
// consumers that keep references are caught by the reuse.
func NewSliceSource(info core.SourceInfo, events []core.Event, warnings ...core.Warning) *SliceSource {
	if info.Format == "" {
		info.Format = "test"
	}
	if len(events) > 0 {
		info.Start, info.End = events[0].Time, events[len(events)-1].Time
	}
	info.Bytes = int64(len(events))
	return &SliceSource{info: info, events: events, warn: warnings}
}

// Info implements [core.Source].
func (s *SliceSource) Info() core.SourceInfo { return s.info }

// Next implements [core.Source].
func (s *SliceSource) Next() (*core.Event, error) {
	if s.next >= len(s.events) {
		return nil, io.EOF
	}
	s.cur = s.events[s.next]
	s.fields = append(s.fields[:0], s.cur.Fields...)
	s.cur.Fields = s.fields
	s.next++
	return &s.cur, nil
}

// AppendContents implements [core.Source]: "{ name = value, ... }".
func (s *SliceSource) AppendContents(dst []byte, ev *core.Event) []byte {
	dst = append(dst, "{ "...)
	for i, f := range ev.Fields {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if ev.Class != nil && i < len(ev.Class.Fields) {
			dst = append(dst, ev.Class.Fields[i]...)
			dst = append(dst, " = "...)
		}
		if f.Kind == core.FieldString {
			dst = strconv.AppendQuote(dst, string(f.Bytes))
		} else {
			dst = f.AppendText(dst)
		}
	}
	return append(dst, " }"...)
}

// Checkpoint implements [core.Source].
func (s *SliceSource) Checkpoint(dst []byte) []byte {
	return binary.AppendUvarint(dst, uint64(s.next))
}

// Seek implements [core.Source].
func (s *SliceSource) Seek(cp []byte) error {
	v, n := binary.Uvarint(cp)
	if n <= 0 || n != len(cp) || v > uint64(len(s.events)) {
		return errors.New("slice source: malformed checkpoint")
	}
	s.next = int(v)
	return nil
}

// Progress implements [core.Source]: one "byte" per event.
func (s *SliceSource) Progress() (int64, int64) { return int64(s.next), int64(len(s.events)) }

// Warnings implements [core.Source].
func (s *SliceSource) Warnings() []core.Warning { return s.warn }

// Close implements [core.Source].
func (s *SliceSource) Close() error { return nil }

// String describes the source for test logs.
func (s *SliceSource) String() string {
	return fmt.Sprintf("SliceSource(%d events, at %d)", len(s.events), s.next)
}
