print("bledecode: under construction")
