package fstest

// check is one named check of the contract. Each runs in a directory of its own, so checks are
// independent of each other and of their order.
type check struct {
	group, name string
	run         func(*checker)
}

var checks = []check{
	{"Resolve", "blank", checkResolveBlank},
	{"Resolve", "display-path", checkResolveDisplay},
	{"Resolve", "identity", checkResolveIdentity},
	{"Resolve", "through-a-file", checkResolveThroughFile},
	{"Resolve", "directory-spelling", checkResolveDirectorySpelling},
	{"Resolve", "process-path-and-url", checkProcessPathAndURL},
	{"Resolve", "contains", checkContains},

	{"Stat", "kinds", checkStatKinds},
	{"Stat", "versions", checkStatVersions},
	{"Lstat", "kinds", checkLstat},

	{"ReadText", "text", checkReadText},
	{"ReadText", "not-text", checkReadNotText},
	{"ReadText", "not-a-regular-file", checkReadNotRegular},
	{"ReadText", "long-stream", checkStreamLong},
	{"ReadText", "stat-text", checkStatText},
	{"ReadBytes", "bytes", checkReadBytes},

	{"ListDir", "entries", checkListDir},
	{"ListDir", "errors", checkListDirErrors},

	{"WriteText", "create", checkWriteCreate},
	{"WriteText", "update", checkWriteUpdate},
	{"WriteText", "create-if-absent", checkWriteCreateIfAbsent},
	{"WriteText", "replace-if-version", checkWriteReplaceIfVersion},
	{"WriteText", "not-a-regular-file", checkWriteNotRegular},
	{"WriteText", "bom", checkWriteBOM},
	{"WriteText", "symlink", checkWriteSymlink},
	{"WriteText", "no-residue", checkWriteNoResidue},
	{"WriteText", "concurrent-guards", checkWriteConcurrent},

	{"EditText", "replace", checkEditReplace},
	{"EditText", "matching", checkEditMatching},
	{"EditText", "line-endings", checkEditLineEndings},
	{"EditText", "bom", checkEditBOM},
	{"EditText", "guards", checkEditGuards},
	{"EditText", "not-text", checkEditNotText},
	{"EditText", "symlink", checkEditSymlink},
	{"EditText", "concurrent-guards", checkEditConcurrent},

	{"Cancel", "every-primitive", checkCancel},
	{"Cancel", "mid-stream", checkCancelMidStream},

	{"Searcher", "glob", checkGlob},
	{"Searcher", "grep", checkGrep},
	{"Searcher", "errors", checkSearchErrors},
}
