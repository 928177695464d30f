package ctf2

import (
	"encoding/hex"
	"strings"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

func (p *parser) clockFragment(v *value) error {
	idv, err := v.need("id", "clock class")
	if err != nil {
		return err
	}
	id, err := idv.string("clock class id")
	if err != nil {
		return err
	}
	if _, dup := p.clocks[id]; dup {
		return errorf(idv.off, "duplicate clock class id %q", id)
	}
	_, name, uid, err := identity(v, "clock class")
	if err != nil {
		return err
	}
	c := &tsdl.Clock{Name: id, Line: int(min(v.off, 1<<30))}
	if name != "" {
		c.Name = name
	}
	if u, ok := parseUUID(uid); ok {
		c.UUID, c.HasUUID = u, true
	}
	fv, err := v.need("frequency", "clock class")
	if err != nil {
		return err
	}
	if c.Freq, err = fv.uint("clock class frequency"); err != nil {
		return err
	}
	if c.Freq == 0 {
		return errorf(fv.off, "clock class frequency is 0")
	}
	if o := v.get("origin"); o != nil {
		switch o.kind {
		case jString:
			if o.text != "unix-epoch" {
				return errorf(o.off, "clock class origin %q: expecting \"unix-epoch\" or an object", o.text)
			}
			c.Absolute = true
		case jObject:
			if _, _, _, err := identity(o, "clock class origin"); err != nil {
				return err
			}
			for _, k := range []string{"name", "uid"} {
				if _, err := o.need(k, "clock class origin"); err != nil {
					return err
				}
			}
			if err := o.done("clock class origin"); err != nil {
				return err
			}
		default:
			return errorf(o.off, "clock class origin: expecting a string or an object, not %s", kindNames[o.kind])
		}
	}
	if off := v.get("offset-from-origin"); off != nil {
		if err := off.want(jObject, "clock class offset-from-origin"); err != nil {
			return err
		}
		if s := off.get("seconds"); s != nil {
			if c.OffsetS, err = s.int("offset-from-origin seconds"); err != nil {
				return err
			}
		}
		if cy := off.get("cycles"); cy != nil {
			n, err := cy.uint("offset-from-origin cycles")
			if err != nil {
				return err
			}
			if n >= c.Freq {
				return errorf(cy.off, "offset-from-origin cycles %d is not less than the frequency %d", n, c.Freq)
			}
			c.Offset = int64(n)
		}
		if err := off.done("clock class offset-from-origin"); err != nil {
			return err
		}
	}
	if pv := v.get("precision"); pv != nil {
		if c.Precision, err = pv.uint("clock class precision"); err != nil {
			return err
		}
	}
	if av := v.get("accuracy"); av != nil {
		if _, err = av.uint("clock class accuracy"); err != nil {
			return err
		}
	}
	if d := v.get("description"); d != nil {
		if c.Description, err = d.string("clock class description"); err != nil {
			return err
		}
	}
	p.clocks[id] = c
	p.tr.Clocks = append(p.tr.Clocks, c)
	return nil
}

// parseUUID reads the text form of a UUID (LTTng gives clocks the boot
// id or the clock's UUID as uid).
func parseUUID(s string) ([16]byte, bool) {
	var u [16]byte
	h := strings.ReplaceAll(s, "-", "")
	if len(s) != 36 || len(h) != 32 {
		return u, false
	}
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return u, false
	}
	return u, true
}

func (p *parser) streamFragment(v *value) error {
	id := uint64(0)
	var err error
	idv := v.get("id")
	if idv != nil {
		if id, err = idv.uint("data stream class id"); err != nil {
			return err
		}
	} else {
		idv = v
	}
	if _, dup := p.streams[id]; dup {
		return errorf(idv.off, "duplicate data stream class id %d", id)
	}
	if _, _, _, err := identity(v, "data stream class"); err != nil {
		return err
	}
	st := &streamState{sc: &tsdl.StreamClass{ID: id, Line: int(min(v.off, 1<<30))}, events: map[uint64]bool{}}
	if cv := v.get("default-clock-class-id"); cv != nil {
		name, err := cv.string("default-clock-class-id")
		if err != nil {
			return err
		}
		if st.clock = p.clocks[name]; st.clock == nil {
			return errorf(cv.off, "default-clock-class-id %q names no clock class defined before", name)
		}
	}
	for _, s := range []struct {
		key   string
		scope int
		what  string
		dst   **tsdl.Type
	}{
		{"packet-context-field-class", 1, "packet context", &st.sc.PacketContext},
		{"event-record-header-field-class", 2, "event record header", &st.sc.EventHeader},
		{"event-record-common-context-field-class", 3, "event record common context", &st.sc.EventContext},
	} {
		if fv := v.get(s.key); fv != nil {
			t, err := p.scope(fv, &fcCtx{scope: s.scope, clock: st.clock}, s.what)
			if err != nil {
				return err
			}
			*s.dst = t
		}
	}
	p.streams[id] = st
	p.tr.Streams = append(p.tr.Streams, st.sc)
	return nil
}

// logLevels are LTTng's log-level attribute values, numbered as TSDL's
// loglevel attribute.
var logLevels = map[string]int64{
	"emergency": 0, "alert": 1, "critical": 2, "error": 3, "warning": 4, "notice": 5, "info": 6,
	"debug:system": 7, "debug:program": 8, "debug:process": 9, "debug:module": 10, "debug:unit": 11,
	"debug:function": 12, "debug:line": 13, "debug": 14,
}

func (p *parser) eventFragment(v *value) error {
	id, sid := uint64(0), uint64(0)
	var err error
	idv := v.get("id")
	if idv != nil {
		if id, err = idv.uint("event record class id"); err != nil {
			return err
		}
	} else {
		idv = v
	}
	if sv := v.get("data-stream-class-id"); sv != nil {
		if sid, err = sv.uint("event record class data-stream-class-id"); err != nil {
			return err
		}
	}
	st := p.streams[sid]
	if st == nil {
		return errorf(v.off, "no data stream class fragment exists with numeric ID %d", sid)
	}
	if st.events[id] {
		return errorf(idv.off, "duplicate event record class id %d in data stream class %d", id, sid)
	}
	_, name, _, err := identity(v, "event record class")
	if err != nil {
		return err
	}
	if v.get("name") == nil {
		name = "<unknown>" // the name is optional; babeltrace2 prints this
	}
	ec := &tsdl.EventClass{Name: name, ID: id, StreamID: sid, Line: int(min(v.off, 1<<30))}
	if a := v.get("attributes"); a != nil {
		if len(a.obj) > 0 {
			ec.Attributes = p.raw(a)
		}
		if lt := a.get("lttng.org,2009"); lt != nil && lt.kind == jObject {
			if ll := lt.get("log-level"); ll != nil && ll.kind == jString {
				ec.LogLevel, ec.HasLogLevel = logLevels[ll.text]
			}
			if u := lt.get("emf-uri"); u != nil && u.kind == jString {
				ec.EMFURI = u.text
			}
		}
	}
	for _, s := range []struct {
		key   string
		scope int
		what  string
		dst   **tsdl.Type
	}{
		{"specific-context-field-class", 4, "event record specific context", &ec.Context},
		{"payload-field-class", 5, "event record payload", &ec.Payload},
	} {
		if fv := v.get(s.key); fv != nil {
			t, err := p.scope(fv, &fcCtx{scope: s.scope, clock: st.clock}, s.what)
			if err != nil {
				return err
			}
			*s.dst = t
		}
	}
	st.events[id] = true
	st.sc.Events = append(st.sc.Events, ec)
	return nil
}
