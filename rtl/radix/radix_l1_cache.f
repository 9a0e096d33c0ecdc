radix_l1_cache.sv
