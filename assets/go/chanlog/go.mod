module chanscope/chanlog

go 1.19
