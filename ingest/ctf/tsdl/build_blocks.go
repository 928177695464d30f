package tsdl

// The top-level blocks: trace, env, clock, stream and event.

func (b *builder) traceBlock(parent *scope, d *decl) error {
	if b.haveTrace {
		return errorf(d.line, "duplicate trace block")
	}
	b.haveTrace = true
	sc := newScope(parent)
	tr := b.tr
	seen := map[string]bool{}
	err := b.entries(sc, d, func(name string, e *decl) error {
		seen[name] = true
		var err error
		switch name {
		case "major", "minor":
			var v uint64
			if v, err = unsigned(e.rhs, name); err == nil {
				if name == "major" {
					tr.Major = int(min(v, 1<<20))
				} else {
					tr.Minor = int(min(v, 1<<20))
				}
			}
		case "uuid":
			tr.UUID, err = uuid(e.rhs)
			tr.HasUUID = err == nil
		case "packet.header":
			tr.PacketHeader, err = b.scopeType(sc, e, "trace.packet.header")
		}
		return err // byte_order was read by the first pass
	})
	if err != nil {
		return err
	}
	if !seen["major"] || !seen["minor"] {
		return errorf(d.line, "trace block without major and minor")
	}
	if tr.Major != 1 || tr.Minor != 8 {
		return errorf(d.line, "unsupported CTF version %d.%d (want 1.8)", tr.Major, tr.Minor)
	}
	return nil
}

// scopeType resolves "name := type" in a block; the type must be a
// structure.
func (b *builder) scopeType(sc *scope, e *decl, what string) (*Type, error) {
	if e.kind != declTypeAssign {
		return nil, errorf(e.line, "%s must be assigned a type with ':='", what)
	}
	var dc declarator
	if len(e.decls) > 0 {
		dc = e.decls[0]
	}
	t, err := b.declaredType(sc, e.spec, dc)
	if err != nil {
		return nil, err
	}
	if t.Kind != KindStruct {
		return nil, errorf(e.line, "%s must be a structure, not a %s", what, t.Kind)
	}
	return t, nil
}

func (b *builder) envBlock(d *decl) error {
	for i := range d.entries {
		e := &d.entries[i]
		if e.kind != declAssign {
			return errorf(e.line, "env entries must be assignments")
		}
		ent := EnvEntry{Name: joinPath(e.lhs)}
		switch e.rhs.kind {
		case exprString:
			ent.IsStr, ent.Str = true, e.rhs.str
		case exprNum:
			v, err := signedValue(e.rhs)
			if err != nil {
				return err
			}
			ent.Int = v
		default:
			return errorf(e.line, "env %q must be a string or an integer", ent.Name)
		}
		replaced := false
		for j := range b.tr.Env {
			if b.tr.Env[j].Name == ent.Name {
				b.tr.Env[j], replaced = ent, true
			}
		}
		if !replaced {
			b.tr.Env = append(b.tr.Env, ent)
		}
	}
	return nil
}

func (b *builder) clockBlock(d *decl) error {
	c := &Clock{Freq: 1_000_000_000, Line: d.line}
	err := b.entries(nil, d, func(name string, e *decl) error {
		if e.kind != declAssign {
			return errorf(e.line, "clock entries must be assignments")
		}
		var err error
		switch name {
		case "name":
			c.Name, err = nameValue(e, "clock name")
		case "uuid":
			c.UUID, err = uuid(e.rhs)
			c.HasUUID = err == nil
		case "description":
			if e.rhs.kind != exprString {
				err = errorf(e.line, "clock description must be a string")
			}
			c.Description = e.rhs.str
		case "freq":
			if c.Freq, err = unsigned(e.rhs, "clock freq"); err == nil && c.Freq == 0 {
				err = errorf(e.line, "clock frequency must not be 0")
			}
		case "precision":
			c.Precision, err = unsigned(e.rhs, "clock precision")
		case "offset_s":
			c.OffsetS, err = signedValue(e.rhs)
		case "offset":
			c.Offset, err = signedValue(e.rhs) // section 8: may be negative
		case "absolute":
			c.Absolute, err = boolean(e.rhs, "absolute")
		}
		return err
	})
	if err != nil {
		return err
	}
	if c.Name == "" {
		return errorf(d.line, "clock without a name")
	}
	for _, o := range b.tr.Clocks {
		if o.Name == c.Name {
			return errorf(d.line, "duplicate clock %q", c.Name)
		}
	}
	b.tr.Clocks = append(b.tr.Clocks, c)
	return nil
}

func (b *builder) streamBlock(parent *scope, d *decl) error {
	sc := newScope(parent)
	s := &StreamClass{Line: d.line}
	hasID := false
	err := b.entries(sc, d, func(name string, e *decl) error {
		var err error
		switch name {
		case "id":
			s.ID, err = unsigned(e.rhs, "stream id")
			hasID = true
		case "event.header":
			s.EventHeader, err = b.scopeType(sc, e, "stream.event.header")
		case "event.context":
			s.EventContext, err = b.scopeType(sc, e, "stream.event.context")
		case "packet.context":
			s.PacketContext, err = b.scopeType(sc, e, "stream.packet.context")
		}
		return err
	})
	if err != nil {
		return err
	}
	if !hasID {
		if len(b.tr.Streams) > 0 {
			return errorf(d.line, "stream block without an id, and the trace has several streams")
		}
		if ph := b.tr.PacketHeader; ph != nil {
			for _, f := range ph.Fields {
				if f.Name == "stream_id" {
					return errorf(d.line, "stream block without an id, but the packet header has a stream_id")
				}
			}
		}
	}
	if b.tr.Stream(s.ID) != nil {
		return errorf(d.line, "duplicate stream id %d", s.ID)
	}
	b.tr.Streams = append(b.tr.Streams, s)
	return nil
}

func (b *builder) eventBlock(parent *scope, d *decl) error {
	sc := newScope(parent)
	ev := &EventClass{Line: d.line}
	seen := map[string]bool{}
	err := b.entries(sc, d, func(name string, e *decl) error {
		seen[name] = true
		var err error
		switch name {
		case "name":
			ev.Name, err = nameValue(e, "event name")
		case "id":
			ev.ID, err = unsigned(e.rhs, "event id")
		case "stream_id":
			ev.StreamID, err = unsigned(e.rhs, "event stream_id")
		case "loglevel":
			ev.LogLevel, err = signedValue(e.rhs)
			ev.HasLogLevel = true
		case "model.emf.uri":
			if e.rhs.kind != exprString {
				err = errorf(e.line, "model.emf.uri must be a string")
			}
			ev.EMFURI = e.rhs.str
		case "context":
			ev.Context, err = b.scopeType(sc, e, "event.context")
		case "fields":
			ev.Payload, err = b.scopeType(sc, e, "event.fields")
		}
		return err
	})
	if err != nil {
		return err
	}
	if !seen["name"] {
		return errorf(d.line, "event block without a name")
	}
	var s *StreamClass
	switch {
	case seen["stream_id"]:
		if s = b.tr.Stream(ev.StreamID); s == nil {
			// The stream class may be declared later (babeltrace2 and
			// the specification accept any order): attach it at the end.
			b.pending = append(b.pending, ev)
			return nil
		}
	case len(b.tr.Streams) == 0:
		s = &StreamClass{Line: d.line} // implicit stream 0
		b.tr.Streams = append(b.tr.Streams, s)
	case len(b.tr.Streams) == 1:
		s = b.tr.Streams[0]
	default:
		return errorf(d.line, "event %q without a stream_id, and the trace has several streams", ev.Name)
	}
	return attachEvent(s, ev)
}

// attachEvent adds ev to its stream class s, refusing duplicate ids.
func attachEvent(s *StreamClass, ev *EventClass) error {
	ev.StreamID = s.ID
	if s.Event(ev.ID) != nil {
		return errorf(ev.Line, "duplicate event id %d in stream %d (event %q)", ev.ID, s.ID, ev.Name)
	}
	s.Events = append(s.Events, ev)
	return nil
}

// attachPending attaches the events declared before their stream class.
func (b *builder) attachPending() error {
	for _, ev := range b.pending {
		s := b.tr.Stream(ev.StreamID)
		if s == nil {
			return errorf(ev.Line, "event %q refers to stream %d, which is not declared", ev.Name, ev.StreamID)
		}
		if err := attachEvent(s, ev); err != nil {
			return err
		}
	}
	return nil
}

// entries calls fn for each assignment of a block, registering its
// typedefs and typealiases in sc (when sc is not nil) and refusing
// duplicate names.
func (b *builder) entries(sc *scope, d *decl, fn func(name string, e *decl) error) error {
	seen := map[string]bool{}
	for i := range d.entries {
		e := &d.entries[i]
		if e.kind == declTypedef || e.kind == declTypealias {
			if sc == nil {
				return errorf(e.line, "type declaration in a %s block", d.block)
			}
			if err := b.typeDecl(sc, e); err != nil {
				return err
			}
			continue
		}
		name := joinPath(e.lhs)
		if seen[name] {
			return errorf(e.line, "duplicate %q in %s block", name, d.block)
		}
		seen[name] = true
		if err := fn(name, e); err != nil {
			return err
		}
	}
	return nil
}
