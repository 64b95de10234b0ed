module github.com/refereed/refereed

go 1.26
