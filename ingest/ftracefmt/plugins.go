package ftracefmt

import "strconv"

// appendPlugin prints the events that libtraceevent's plugins print
// instead of their print format (plugin_sched_switch.c, plugin_hrtimer.c).
func (p *Printer) appendPlugin(dst []byte, ef *Format, r *Record) ([]byte, bool) {
	if ef.System == "kmem" {
		return p.appendKmemCallSite(dst, ef, r), false
	}
	if ef.System != "sched" && ef.System != "timer" {
		return dst, false
	}
	num := func(name string) (int64, bool) {
		if fd := ef.Field(name); fd != nil {
			return r.Int(fd, 0)
		}
		return 0, false
	}
	text := func(name string) []byte {
		if fd := ef.Field(name); fd != nil {
			return r.Text(fd)
		}
		return nil
	}
	commPidPrio := func(dst []byte, comm, pid, prio string) []byte {
		dst = append(dst, text(comm)...)
		dst = append(dst, ':')
		v, _ := num(pid)
		dst = strconv.AppendInt(dst, v, 10)
		dst = append(dst, " ["...)
		v, _ = num(prio)
		dst = strconv.AppendInt(dst, v, 10)
		return append(dst, ']')
	}
	switch ef.Name {
	case "sched_switch":
		dst = commPidPrio(dst, "prev_comm", "prev_pid", "prev_prio")
		dst = append(dst, ' ')
		state, _ := num("prev_state")
		dst = appendPluginState(dst, state)
		dst = append(dst, " ==> "...)
		return commPidPrio(dst, "next_comm", "next_pid", "next_prio"), true
	case "sched_wakeup", "sched_wakeup_new":
		dst = commPidPrio(dst, "comm", "pid", "prio")
		if v, ok := num("success"); ok {
			dst = strconv.AppendInt(append(dst, " success="...), v, 10)
		}
		if v, ok := num("target_cpu"); ok {
			dst = append(dst, " CPU:"...)
			dst = appendZeroPad(dst, v, 3)
		}
		return dst, true
	case "hrtimer_start", "hrtimer_expire_entry":
		dst = append(dst, "hrtimer="...)
		v, _ := num("hrtimer")
		dst = strconv.AppendUint(append(dst, "0x"...), uint64(v), 16)
		if ef.Name == "hrtimer_expire_entry" {
			v, _ = num("now")
			dst = strconv.AppendUint(append(dst, " now="...), uint64(v), 10)
		}
		fn, _ := num("function")
		dst = append(dst, " function="...)
		if name, addr, ok := p.lookup(uint64(fn)); ok {
			// libtraceevent prints the symbol's address minus the value.
			dst = append(dst, name...)
			dst = strconv.AppendUint(append(dst, "/0x"...), addr-uint64(fn), 16)
		} else {
			dst = appendZeroPad(append(dst, "0x"...), fn, 8)
		}
		if ef.Name == "hrtimer_start" {
			v, _ = num("expires")
			dst = strconv.AppendUint(append(dst, " expires="...), uint64(v), 10)
			v, _ = num("softexpires")
			dst = strconv.AppendUint(append(dst, " softexpires="...), uint64(v), 10)
		}
		return dst, true
	}
	return dst, false
}

// appendPluginState prints prev_state as the sched_switch plugin does: a
// letter per bit of "SDTtZXxW" (not the kernel's own letters: 0x10 is EXIT_DEAD, printed Z), '|'-separated, or "R" when none is set.
func appendPluginState(dst []byte, state int64) []byte {
	const letters = "SDTtZXxW"
	found := false
	for i := 0; i < len(letters); i++ {
		if state&(1<<i) == 0 {
			continue
		}
		if found {
			dst = append(dst, '|')
		}
		found = true
		dst = append(dst, letters[i])
	}
	if !found {
		dst = append(dst, 'R')
	}
	return dst
}

func appendZeroPad(dst []byte, v int64, width int) []byte {
	b := strconv.AppendInt(nil, v, 10)
	for i := len(b); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, b...)
}

// appendKmemCallSite prints the kmem plugin's "(function+0xoffset) " before
// the allocation events' own print format (plugin_kmem.c).
func (p *Printer) appendKmemCallSite(dst []byte, ef *Format, r *Record) []byte {
	switch ef.Name {
	case "kfree", "kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node", "kmem_cache_free":
	default:
		return dst
	}
	fd := ef.Field("call_site")
	if fd == nil {
		return dst
	}
	v, ok := r.Int(fd, 0)
	if !ok {
		return dst
	}
	name, addr, ok := p.lookup(uint64(v))
	if !ok {
		return dst
	}
	dst = append(append(dst, '('), name...)
	dst = strconv.AppendUint(append(dst, "+0x"...), uint64(uint32(uint64(v)-addr)), 16)
	return append(dst, ") "...)
}
