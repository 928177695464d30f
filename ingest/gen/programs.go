package gen

// step runs the next step of th's program at t; th runs on th.cpu.
func (s *sim) step(th *thread, t int64) {
	switch th.kind {
	case kindWorker:
		s.worker(th, t)
	case kindParent:
		s.burn(th, t)
	case kindShell:
		s.bash(th, t)
	case kindKworker, kindRCU:
		s.kthread(th, t)
	case kindSSHD:
		s.sshdStep(th, t)
	case kindConsumerd:
		s.consumerd(th, t)
	}
}

// worker: run, one or two system calls, block (nanosleep, or a futex
// wait another thread may end), a last write, exit.
func (s *sim) worker(th *thread, t int64) {
	user := func() int64 { return s.between(2*us, 20*us) }
	sys := func() int64 { return s.between(1*us, 8*us) }
	switch th.pc {
	case 0:
		th.pc = 1
		s.after(th, t, user())
	case 1, 3:
		if th.pc == 3 && s.rng.IntN(2) == 0 {
			th.pc = 5
			s.after(th, t, s.between(1*us, 4*us))
			return
		}
		switch r := s.rng.IntN(10); {
		case r < 4:
			t = s.sysRead(th, t, 3, 4096)
			th.sys, th.sysRet = evSysExitRead, 4096
		case r < 7:
			t = s.sysWrite(th, t, 1, 64)
			th.sys, th.sysRet = evSysExitWrite, 64
		default:
			// FUTEX_WAKE: end the oldest futex wait, if any.
			t = s.sysFutex(th, t, futexWake)
			th.sys, th.sysRet = evSysExitFutex, 0
			for len(s.waiters) > 0 {
				w := s.waiters[0]
				s.waiters = s.waiters[1:]
				if !w.inWaitQueue {
					continue
				}
				w.inWaitQueue = false
				if w.state == stBlocked {
					w.sysRet = 0
					t = s.wakeFrom(th.cpu, t+s.between(1*us, 2*us), w)
					th.sysRet = 1
					break
				}
			}
		}
		th.pc++
		s.after(th, t, sys())
	case 2, 4:
		switch th.sys {
		case evSysExitWrite:
			t = s.sysRet(th, t, evSysExitWrite, th.sysRet)
		default:
			t = s.sysExit(th, t)
		}
		th.pc++
		s.after(th, t, user())
	case 5:
		th.pc = 6
		if s.rng.IntN(10) < 6 {
			t = s.sysNanosleep(th, t)
			d := s.between(50*us, 2*ms)
			s.block(th, t, evSysExitNanosleep, 0)
			s.timerWake(th, t+d)
			return
		}
		t = s.sysFutex(th, t, futexWait)
		th.inWaitQueue = true
		s.waiters = append(s.waiters, th)
		d := s.between(200*us, 1*ms)
		s.block(th, t, evSysExitFutex, errTimedOut)
		s.timerWake(th, t+d)
	case 6:
		th.inWaitQueue = false
		t = s.sysExit(th, t)
		th.pc = 7
		s.after(th, t, user())
	case 7:
		t = s.sysWrite(th, t, 1, 16)
		th.pc = 8
		s.after(th, t, sys())
	case 8:
		t = s.sysRet(th, t, evSysExitWrite, 16)
		th.pc = 9
		s.after(th, t, user())
	case 9:
		s.live--
		var wake *thread
		if s.live == 0 && s.joining && s.spawned == s.cfg.Threads {
			wake, s.joining = s.parent, false
		}
		s.exitThread(th, t, false, wake)
	}
}

// burn: exec, clone the threads, join them, exit.
func (s *sim) burn(th *thread, t int64) {
	switch th.pc {
	case 100: // just forked by bash: exec burn
		e := s.pay(th.cpu)
		e.str("/usr/local/bin/burn")
		e.u64(0x7ffc_2000_0000)
		e.u64(0x7ffc_2000_0100)
		t = s.emit(th.cpu, t, evSysEntryExecve)
		th.pc = 101
		s.after(th, t, s.between(50*us, 120*us))
	case 101:
		th.comm = "burn"
		e := s.pay(th.cpu)
		e.str("/usr/local/bin/burn")
		e.i32(th.tid)
		e.i32(th.tid)
		t = s.emit(th.cpu, t, evSchedExec)
		t = s.sysRet(th, t, evSysExitExecve, 0)
		th.pc = 0
		s.after(th, t, s.between(100*us, 300*us))
	case 0:
		child := s.newThread(kindWorker, th.pid, th.ppid, th.comm)
		s.spawned++
		s.live++
		th.sysRet = int64(child.tid)
		t = s.clone(th, t, child, cloneThreadFlags)
		th.pc = 1
		s.after(th, t, s.between(2*us, 6*us))
	case 1:
		t = s.sysRet(th, t, evSysExitClone, th.sysRet)
		if s.spawned < s.cfg.Threads {
			th.pc = 0
			iv := s.cfg.ForkInterval
			s.after(th, t, s.between(iv/2, iv+iv/2))
			return
		}
		th.pc = 2
		s.after(th, t, s.between(5*us, 20*us))
	case 2: // join
		t = s.sysFutex(th, t, futexWait)
		th.pc = 3
		if s.live == 0 {
			th.sys, th.sysRet = evSysExitFutex, 0
			s.after(th, t, s.between(1*us, 3*us))
			return
		}
		s.joining = true
		s.block(th, t, evSysExitFutex, 0)
	case 3:
		t = s.sysExit(th, t)
		th.pc = 4
		s.after(th, t, s.between(10*us, 30*us))
	case 4:
		var wake *thread
		if s.shellWts {
			wake, s.shellWts = s.shell, false
			s.shell.sysRet = int64(th.tid)
		}
		s.exitThread(th, t, true, wake)
		s.endAt = t + 2*ms
	}
}

// bash: fork burn, wait for it, then read the terminal.
func (s *sim) bash(th *thread, t int64) {
	switch th.pc {
	case 0:
		child := s.newThread(kindParent, 0, th.pid, th.comm)
		child.pid = child.tid
		child.pc = 100
		s.parent = child
		th.sysRet = int64(child.tid)
		t = s.clone(th, t, child, cloneForkFlags)
		th.pc = 1
		s.after(th, t, s.between(5*us, 15*us))
	case 1:
		t = s.sysRet(th, t, evSysExitClone, th.sysRet)
		th.pc = 2
		s.after(th, t, s.between(5*us, 10*us))
	case 2:
		e := s.pay(th.cpu)
		e.i32(-1)
		e.i32(0)
		t = s.emit(th.cpu, t, evSysEntryWait4)
		th.pc = 3
		s.shellWts = true
		s.block(th, t, evSysExitWait4, 0)
	case 3:
		t = s.sysExit(th, t)
		th.pc = 4
		s.after(th, t, s.between(20*us, 50*us))
	case 4:
		t = s.sysRead(th, t, 0, 1)
		th.pc = 5
		s.block(th, t, evSysExitRead, 1) // until a key is pressed: never
	}
}

// kthread: kworker/N:1 and rcu_sched run briefly on timer wakeups.
func (s *sim) kthread(th *thread, t int64) {
	if th.pc == 0 {
		th.pc = 1
		s.after(th, t, s.between(2*us, 10*us))
		return
	}
	th.pc = 0
	s.block(th, t, 0, 0)
	if th.kind == kindRCU {
		s.timerWake(th, t+s.between(3*ms, 5*ms))
	} else {
		s.timerWake(th, t+s.between(2*ms, 6*ms))
	}
}

// sshdStep: read a packet (blocking until one arrives), answer it.
func (s *sim) sshdStep(th *thread, t int64) {
	switch th.pc {
	case 0:
		t = s.sysRead(th, t, 4, 16384)
		th.pc = 1
		if s.netQueue > 0 {
			s.netQueue--
			th.sys, th.sysRet = evSysExitRead, 52
			s.after(th, t, s.between(2*us, 5*us))
			return
		}
		s.block(th, t, evSysExitRead, 52)
	case 1:
		t = s.sysExit(th, t)
		th.pc = 2
		s.after(th, t, s.between(10*us, 30*us))
	case 2:
		t = s.sysWrite(th, t, 4, 52)
		th.pc = 3
		s.after(th, t, s.between(3*us, 8*us))
	case 3:
		t = s.sysRet(th, t, evSysExitWrite, 52)
		th.pc = 0
		s.after(th, t, s.between(5*us, 20*us))
	}
}

// consumerd: lttng-consumerd wakes up periodically and moves sub-buffers.
func (s *sim) consumerd(th *thread, t int64) {
	switch th.pc {
	case 0:
		t = s.sysNanosleep(th, t)
		th.pc = 1
		s.block(th, t, evSysExitNanosleep, 0)
		s.timerWake(th, t+s.between(20*ms, 60*ms))
	case 1:
		t = s.sysExit(th, t)
		th.pc = 2
		s.after(th, t, s.between(3*us, 8*us))
	case 2:
		t = s.sysRead(th, t, 12, 4096)
		th.sys, th.sysRet = evSysExitRead, 4096
		th.pc = 3
		s.after(th, t, s.between(2*us, 5*us))
	case 3:
		t = s.sysExit(th, t)
		th.pc = 4
		s.after(th, t, s.between(3*us, 8*us))
	case 4:
		t = s.sysWrite(th, t, 13, 4096)
		th.pc = 5
		s.after(th, t, s.between(5*us, 15*us))
	case 5:
		t = s.sysRet(th, t, evSysExitWrite, 4096)
		th.pc = 0
		s.after(th, t, s.between(3*us, 8*us))
	}
}

// newThread creates a thread with the next tid.
func (s *sim) newThread(kind tkind, pid, ppid int32, comm string) *thread {
	th := &thread{tid: s.nextTID, pid: pid, ppid: ppid, comm: comm, kind: kind}
	s.nextTID++
	return th
}
