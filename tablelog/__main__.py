from tablelog.cli import main

main(prog_name="tablelog")
