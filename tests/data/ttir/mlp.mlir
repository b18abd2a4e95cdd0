// A two-layer MLP on 28x28 inputs, bf16, as a frontend would write it:
// argument and result attributes, #loc aliases defined at the end.
module @mlp attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x1>]>} {
  func.func public @forward(%arg0: tensor<1x784xbf16> {ttir.name = "input"} loc("input"), %arg1: tensor<784x256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "w1"}, %arg2: tensor<256xbf16> {ttir.name = "b1"}, %arg3: tensor<256x10xbf16> {ttir.name = "w2"}, %arg4: tensor<10xbf16> {ttir.name = "b2"}) -> (tensor<1x10xbf16> {jax.result_info = "logits"}) {
    %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<1x784xbf16>, tensor<784x256xbf16>) -> tensor<1x256xbf16> loc(#loc1)
    %1 = "ttir.add"(%0, %arg2) : (tensor<1x256xbf16>, tensor<256xbf16>) -> tensor<1x256xbf16> loc(#loc2)
    %2 = "ttir.relu"(%1) : (tensor<1x256xbf16>) -> tensor<1x256xbf16> loc(#loc3)
    %3 = "ttir.matmul"(%2, %arg3) <{transpose_a = false, transpose_b = false}> : (tensor<1x256xbf16>, tensor<256x10xbf16>) -> tensor<1x10xbf16> loc(#loc4)
    %4 = "ttir.add"(%3, %arg4) : (tensor<1x10xbf16>, tensor<10xbf16>) -> tensor<1x10xbf16> loc(#loc5)
    %5 = "ttir.softmax"(%4) <{dimension = -1 : si32, numericStable = true}> : (tensor<1x10xbf16>) -> tensor<1x10xbf16>
    return %5 : tensor<1x10xbf16>
  } loc(#loc)
} loc(#loc)
#loc = loc("mlp.py":1:1)
#loc1 = loc("fc1"("mlp.py":10:8))
#loc2 = loc("fc1.bias")
#loc3 = loc(fused["relu", "mlp.py":12:4])
#loc4 = loc(callsite("fc2" at "mlp.py":14:8))
#loc5 = loc(fused<"bias">["fc2.bias", unknown])
