// Spec section 2: 'Simple, Safe Learning' and its three numbered steps.
import { simpleSafeLearning } from '../content';

export function SimpleSafeLearning() {
  const { heading, intro, steps } = simpleSafeLearning;
  return (
    <section className="section learning" aria-labelledby="learning-heading">
      <div className="container">
        <h2 className="section__heading" id="learning-heading">
          {heading}
        </h2>
        <p className="section__intro">{intro}</p>
        <ol className="grid-list grid-list--three steps">
          {steps.map((step, index) => (
            <li className="steps__item" key={step.title}>
              <span className="steps__number" aria-hidden="true">
                {index + 1}
              </span>
              <h3 className="steps__title">
                <span className="visually-hidden">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="steps__text">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
