package toolfs

// linesDone is the number of line breaks w has consumed so far (a Window counts every one, also
// past its selection), so a seen.Recorder fed alongside need not count them again.
func (w *Window) linesDone() int { return w.completed }
