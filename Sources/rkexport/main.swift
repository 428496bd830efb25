print("rkexport")
