#include "training/TrainingKernels.h"

#include "platform/KernelFactory.h"
#include "training/CpuPairLossKernel.h"

namespace hookmd {

void registerTrainingKernels() {
  registerKernels(kReferencePlatform).PairLoss = [](Backend&, const PairLossSpec& spec) { return createCpuPairLossKernel(spec); };
}

}  // namespace hookmd
