# make -f deps.mk DRV=DRIVER OUT=DIR MODE=OPTION: main.c and work.c into
# DIR/prog, each object with a dependency file (-MD).
OBJS = $(OUT)/main.o $(OUT)/work.o
$(OUT)/prog: $(OBJS)
	@$(DRV) $(MODE) -O2 $(OBJS) -o $@
$(OUT)/%.o: %.c
	@echo "compile $<"
	@mkdir -p $(OUT)
	@$(DRV) $(MODE) -O2 -MD -c $< -o $@ 2>/dev/null
-include $(OBJS:.o=.d)
