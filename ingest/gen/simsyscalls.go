package gen

// The simulated system calls, clone and exit: each emits its entry
// event and schedules what follows.

// syscall helpers: each writes one entry or exit event on th's CPU.

func (s *sim) sysRead(th *thread, t int64, fd uint32, count uint64) int64 {
	e := s.pay(th.cpu)
	e.u32(fd)
	e.u64(count)
	return s.emit(th.cpu, t, evSysEntryRead)
}

func (s *sim) sysReadExit(th *thread, t int64, ret int64) int64 {
	e := s.pay(th.cpu)
	e.i64(ret)
	e.u64(0x7ffd_0000_0000 + uint64(th.tid)*0x1000)
	return s.emit(th.cpu, t, evSysExitRead)
}

func (s *sim) sysWrite(th *thread, t int64, fd uint32, count uint64) int64 {
	e := s.pay(th.cpu)
	e.u32(fd)
	e.u64(0x5600_0000_0000 + uint64(th.tid)*0x40)
	e.u64(count)
	return s.emit(th.cpu, t, evSysEntryWrite)
}

func (s *sim) sysRet(th *thread, t int64, id uint16, ret int64) int64 {
	s.pay(th.cpu).i64(ret)
	return s.emit(th.cpu, t, id)
}

func (s *sim) sysFutex(th *thread, t int64, op int32) int64 {
	e := s.pay(th.cpu)
	e.u64(0x7f00_0000_0000 + uint64(th.pid)*0x100)
	e.i32(op)
	e.u32(1)
	if op == futexWait {
		e.u64(0x7ffd_8000_0000 + uint64(th.tid)*0x10)
	} else {
		e.u64(0)
	}
	e.u64(0)
	e.u32(0)
	return s.emit(th.cpu, t, evSysEntryFutex)
}

func (s *sim) sysFutexExit(th *thread, t int64, ret int64) int64 {
	e := s.pay(th.cpu)
	e.i64(ret)
	e.u64(0x7f00_0000_0000 + uint64(th.pid)*0x100)
	e.u64(0)
	return s.emit(th.cpu, t, evSysExitFutex)
}

func (s *sim) sysNanosleep(th *thread, t int64) int64 {
	s.pay(th.cpu).u64(0x7ffd_9000_0000 + uint64(th.tid)*0x10)
	return s.emit(th.cpu, t, evSysEntryNanosleep)
}

// sysExit writes the exit event of the system call th blocked in.
func (s *sim) sysExit(th *thread, t int64) int64 {
	switch th.sys {
	case evSysExitFutex:
		return s.sysFutexExit(th, t, th.sysRet)
	case evSysExitNanosleep:
		e := s.pay(th.cpu)
		e.i64(th.sysRet)
		e.u64(0)
		return s.emit(th.cpu, t, evSysExitNanosleep)
	case evSysExitRead:
		return s.sysReadExit(th, t, th.sysRet)
	case evSysExitWait4:
		e := s.pay(th.cpu)
		e.i64(th.sysRet)
		e.u64(0x7ffc_1000_0000)
		e.u64(0)
		return s.emit(th.cpu, t, evSysExitWait4)
	}
	return t
}

// clone writes the clone entry, the fork and the wakeup of the new thread.
func (s *sim) clone(th *thread, t int64, child *thread, flags uint64) int64 {
	cpu := th.cpu
	e := s.pay(cpu)
	e.u64(flags)
	e.u64(0)
	e.u64(0x7f00_1000_0000 + uint64(child.tid)*0x1000)
	e.u64(0x7f00_1000_0000 + uint64(child.tid)*0x1000)
	t = s.emit(cpu, t+s.between(1*us, 3*us), evSysEntryClone)
	e = s.pay(cpu)
	e.comm(th.comm)
	e.i32(th.tid)
	e.i32(th.pid)
	e.u32(4026531836)
	e.comm(child.comm)
	e.i32(child.tid)
	e.u8(1)
	e.i32(child.tid)
	e.i32(child.pid)
	e.u32(4026531836)
	t = s.emit(cpu, t+s.between(2*us, 8*us), evSchedFork)
	child.cpu = s.leastLoaded()
	t = s.wakeEvent(cpu, t, evSchedWakeupNew, child)
	s.runnable(child, t)
	return t
}

// exitThread writes the end of a thread: exit system call, process exit,
// the last switch, and later its free.
func (s *sim) exitThread(th *thread, t int64, group bool, wake *thread) {
	cpu := th.cpu
	id := evSysEntryExit
	if group {
		id = evSysEntryExitGroup
	}
	s.pay(cpu).i32(0)
	t = s.emit(cpu, t, id)
	t = s.taskEvent(cpu, t+s.between(3*us, 10*us), evSchedExit, th)
	if wake != nil {
		t = s.wakeFrom(cpu, t, wake)
	}
	th.state = stDead
	th.token++
	t = s.schedule(cpu, t, taskDead)
	s.push(action{t: t + s.between(20*us, 200*us), kind: aFree, th: th, cpu: cpu})
}
